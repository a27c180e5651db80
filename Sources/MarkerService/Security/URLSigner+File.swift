import MarkerFiles
import MarkerQuery
import SystemPackage

extension URLSigner {
    /// The signer of the key file at `path` (see `init(keyFile:)` for its form).
    /// - Throws: `ServiceConfiguration.Invalid` naming the file and the line at fault, never a key.
    init(keyFile path: FilePath) throws(ServiceConfiguration.Invalid) {
        let bytes: [UInt8]
        do { bytes = try path.readAll(limit: Self.maximumFileBytes) } catch {
            throw ServiceConfiguration.Invalid(message: "the signing key file \(path): \(error.message)")
        }
        do { try self.init(keyFile: bytes) } catch {
            throw ServiceConfiguration.Invalid(message: "the signing key file \(path): \(error.message)")
        }
    }
}
