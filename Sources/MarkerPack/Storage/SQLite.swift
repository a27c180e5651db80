import CSQLite
import SystemPackage

/// One SQLite database, closed when the wrapper goes: what an MBTiles file is.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Opens `path` read-only, or creates it (it must not exist) to write.
    init(_ path: FilePath, creating: Bool) throws(MBTiles.Failure) {
        var handle: OpaquePointer?
        let flags = creating ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE) : SQLITE_OPEN_READONLY
        let status = sqlite3_open_v2(path.string, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw MBTiles.Failure("cannot open \(path) as SQLite: \(message)")
        }
        self.handle = handle
        // A hostile file's queries are bounded: no recursive triggers, no huge allocations.
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, 256 << 20)
    }

    deinit { sqlite3_close_v2(handle) }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs statements with no results.
    func execute(_ sql: String) throws(MBTiles.Failure) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastError
            sqlite3_free(message)
            throw MBTiles.Failure("SQLite: \(text)")
        }
    }

    func prepare(_ sql: String) throws(MBTiles.Failure) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw MBTiles.Failure("SQLite: \(lastError)")
        }
        return SQLiteStatement(statement, database: self)
    }
}

/// A prepared statement, finalised when the wrapper goes.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    func bind(_ values: [SQLiteValue]) throws(MBTiles.Failure) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, position, Int64(number))
            case .text(let text): status = sqlite3_bind_text(statement, position, text, -1, markerpaint_sqlite_transient())
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { sqlite3_bind_blob64(statement, position, $0.baseAddress, sqlite3_uint64($0.count), markerpaint_sqlite_transient()) }
            }
            guard status == SQLITE_OK else { throw MBTiles.Failure("SQLite: \(database.lastError)") }
        }
    }

    /// Steps once: true while a row is there to read.
    func step() throws(MBTiles.Failure) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw MBTiles.Failure("SQLite: \(database.lastError)")
        }
    }

    func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: pointer)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

enum SQLiteValue {
    case integer(Int)
    case text(String)
    case blob([UInt8])
}
