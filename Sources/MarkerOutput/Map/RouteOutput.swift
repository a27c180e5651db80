import MarkerFiles
import MarkerMap
import MarkerRender
import MarkerSpec
import OfflineCorridor
public import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The folder a route batch writes into, checked before anything is written: markerpaint only
/// ever replaces or removes what it wrote itself.
///
/// A folder is accepted if it does not exist yet (it is made, with its parents), is empty, or holds
/// only what earlier runs wrote: files its `manifest.json` records with their SHA-256 and that still
/// hash to it, content-hashed images whose bytes hash to their name (a run killed before its
/// manifest), and temporary files and staging folders that killed runs left. Anything else, or a
/// recorded file changed since, and the folder is refused whole. A symlink to a folder is followed:
/// the link stays and its target is updated.
///
/// Publishing is ordered so that a run killed at any moment leaves every file accounted for: new
/// files are drawn into a hidden staging folder; the manifest is rewritten to record old and new
/// files; the new files are moved in (content-hashed images never collide with old names); the
/// final manifest is written; only then are the old files it no longer lists removed. A folder
/// this run made, still empty, is not filled file by file: the staging folder, manifest and all,
/// takes its place in two renames: on ext4 a move into another folder costs about 20 µs, 40 ms
/// for a 2,000-image route.
public final class RouteOutput: Sendable {
    /// Where the batch goes, as the user gave it.
    public let path: FilePath
    /// The folder, open and locked against other runs for as long as this lives.
    let folder: Folder
    /// The previous run's manifest, if the folder has one of markerpaint's.
    let previous: Manifest?
    /// Every file an earlier run wrote here, by name, with its SHA-256.
    let ownFiles: [String: String]
    /// Temporary files and staging folders of killed runs.
    let abandoned: [Folder.Entry]
    /// Temporary files of killed runs in the offline pack's folder.
    let abandonedOffline: [String]
    /// Whether this run made the folder and found it empty: nothing in it but what this run puts there.
    let isNew: Bool

    /// Prefix of the folder a run draws into before it publishes; the pid follows.
    static let stagingPrefix = ".markerpaint-staging-"
    /// Manifests and images are small; a file larger than this is not one of ours.
    static let maximumOwnFileBytes = 256 << 20

    /// Opens the folder at `path` (making it and its parents if missing), locks it for this run and
    /// checks that everything in it is markerpaint's.
    /// - Throws: `OutputError` naming the first file markerpaint did not write, or why the folder cannot be used.
    public init(_ path: FilePath) throws(OutputError) {
        self.path = path
        let (existing, made) = try Folder.lockedForOutput(path)
        let survey = try Self.survey(existing)
        folder = existing
        isNew = made && survey.isEmpty
        previous = survey.manifest
        ownFiles = survey.ownFiles
        abandoned = survey.abandoned
        abandonedOffline = survey.abandonedOffline
    }

    private struct Survey {
        var manifest: Manifest?
        var ownFiles: [String: String] = [:]
        var abandoned: [Folder.Entry] = []
        /// Temporary files of killed runs in the offline pack's folder.
        var abandonedOffline: [String] = []
        /// Whether the folder held nothing at all.
        var isEmpty = false
    }

    /// Sorts everything in `folder` into ours, abandoned, and foreign; throws at the first foreign entry.
    private static func survey(_ folder: Folder) throws(OutputError) -> Survey {
        var survey = Survey()
        let entries: [Folder.Entry]
        do {
            entries = try folder.entries()
            survey.manifest = try Manifest.read(in: folder)
        } catch {
            throw OutputError(error.message)
        }
        survey.isEmpty = entries.isEmpty
        let recorded = survey.manifest?.recordedFiles ?? [:]
        var foreign: [String] = []
        for entry in entries {
            if entry.kind == .folder, isAbandonedStaging(entry.name, in: folder) {
                survey.abandoned.append(entry)
                continue
            }
            if entry.kind == .folder, entry.name == OfflineFiles.folder {
                // The offline pack's folder is ours if every file in it is one the manifest records, unchanged.
                foreign += try surveyOffline(folder, recorded: recorded, into: &survey)
                continue
            }
            guard entry.kind == .file else {
                foreign.append(entry.name)
                continue
            }
            if entry.name == Manifest.fileName, survey.manifest != nil { continue }
            switch try ownership(of: entry.name, in: folder, recordedAs: entry.name, recorded: recorded, root: folder, images: true) {
            case .ours(let sha256): survey.ownFiles[entry.name] = sha256
            case .abandoned: survey.abandoned.append(entry)
            case .foreign: foreign.append(entry.name)
            case .gone: break
            }
        }
        if let first = foreign.first {
            let more = foreign.count > 1 ? " and \(foreign.count - 1) more" : ""
            throw OutputError(
                "--out \(folder.path) holds files markerpaint did not write (\(first)\(more)); give a new or empty folder, "
                    + "or one only markerpaint has written to: it never replaces or removes anything else")
        }
        return survey
    }

    /// Sorts the files of the `offline` subfolder into ours (recorded as `offline/<name>` with the
    /// same hash), temporary files of killed runs (removed when this run publishes), and foreign ones, which it returns.
    private static func surveyOffline(_ folder: Folder, recorded: [String: String?], into survey: inout Survey) throws(OutputError) -> [String] {
        var foreign: [String] = []
        do {
            let offline = try folder.subfolder(OfflineFiles.folder)
            for entry in try offline.entries() {
                let name = "\(OfflineFiles.folder)/\(entry.name)"
                guard entry.kind == .file else {
                    foreign.append(name)
                    continue
                }
                switch try ownership(of: entry.name, in: offline, recordedAs: name, recorded: recorded, root: folder, images: false) {
                case .ours(let sha256): survey.ownFiles[name] = sha256
                case .abandoned: survey.abandonedOffline.append(entry.name)
                case .foreign: foreign.append(name)
                case .gone: break
                }
            }
        } catch let error as OutputError {
            throw error
        } catch {
            foreign.append(OfflineFiles.folder)
        }
        return foreign
    }

    /// Whose a file is, as the survey sorts it.
    private enum Ownership {
        /// An earlier run's, with its SHA-256 now.
        case ours(String)
        /// A temporary file of a run that was killed.
        case abandoned
        case foreign
        /// Removed since the folder was listed.
        case gone
    }

    /// Whose the file `name` of `directory` is: recorded in the manifest as `key` (and not changed
    /// since, but for a damaged image, which is redrawn), a temporary file of a killed run, with
    /// `images`, a content-hashed image of a run killed before its manifest; otherwise foreign.
    private static func ownership(
        of name: String, in directory: Folder, recordedAs key: String, recorded: [String: String?], root: Folder, images: Bool
    ) throws(OutputError) -> Ownership {
        if TemporaryName.isAbandoned(name) { return .abandoned }
        let hashed: String?
        do {
            if images {
                hashed = try directory.contents(of: name, limit: maximumOwnFileBytes).map(ContentHash.sha256Hex)
            } else {
                // The offline folder's files: an offline pack may be gigabytes, hashed as it is read.
                hashed = try ContentHash.sha256Hex(ofFile: name, in: directory)
            }
        } catch {
            return .foreign
        }
        guard let sha256 = hashed else { return .gone }
        if let expected = recorded[key] {
            // A recorded image that no longer hashes to its name is a damaged copy of ours: it
            // is not reused, and the redrawn image replaces it. Any other changed file is the user's.
            guard expected == nil || expected == sha256 || (images && isContentHashedName(key)) else {
                throw OutputError(
                    "\(directory.path(of: name)) was changed after markerpaint wrote it; move it out of \(root.path) "
                        + "or choose another --out folder (markerpaint replaces only what it wrote)")
            }
            return .ours(sha256)
        }
        return images && isContentHashedImage(key, sha256: sha256) ? .ours(sha256) : .foreign
    }

    /// A staging folder of a run that is over (this run holds the lock): named `.markerpaint-staging-<pid>-<n>`
    /// and holding nothing but files (and the offline pack's folder of files), as a run leaves it.
    private static func isAbandonedStaging(_ name: String, in folder: Folder) -> Bool {
        guard name.hasPrefix(stagingPrefix) else { return false }
        let parts = name.dropFirst(stagingPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let entries = try? folder.subfolder(name).entries()
        else { return false }
        return entries.allSatisfy { entry in
            entry.kind == .file
                || (entry.kind == .folder && entry.name == OfflineFiles.folder
                    && ((try? folder.subfolder(name).subfolder(entry.name).entries())?.allSatisfy { $0.kind == .file } ?? false))
        }
    }

    /// Images of an earlier run whose theme and scale the renderer draws as it did then, and whose
    /// files still hash to what it recorded, by reuse key.
    func reusableImages(renderers fingerprints: [String: String]) -> [String: Manifest.Image] {
        guard let previous, let recorded = previous.renderers else { return [:] }
        var reusable: [String: Manifest.Image] = [:]
        for image in previous.images where ownFiles[image.file] == image.sha256 {
            guard let scale = MarkerScale(exactly: image.scale) else { continue }
            let key = RendererFingerprint.key(theme: image.theme, scale: scale)
            guard let fingerprint = fingerprints[key], recorded[key] == fingerprint else { continue }
            reusable[image.key] = image
        }
        return reusable
    }
}
