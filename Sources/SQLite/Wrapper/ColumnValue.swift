internal import CSQLite

/// A Swift type a column can be read as by `Row`'s `row["name"]`, with its storage class checked.
///
/// `String` reads TEXT, `Int` and `Int64` read INTEGER, `Double` reads REAL (or an INTEGER, which a REAL column
/// may hold), `Bool` reads the INTEGERs 0 and 1. An `Optional` of any of them also reads NULL, as nil. A
/// `CaseIterable` enum whose raw value is a `String` conforms by saying so (`extension Kind: ColumnValue {}`) and
/// reads a TEXT that must be one of its raw values.
public protocol ColumnValue {
    /// Reads column `index` (named `name`, for messages) of `row`; throws SQLITE_MISMATCH when it is not a `Self`.
    init(row: Row, index: Int32, name: String) throws
}

extension String: ColumnValue {
    public init(row: Row, index: Int32, name: String) throws {
        guard row.type(index) == SQLITE_TEXT, let text = row.text(Int(index)) else {
            throw row.mismatch(name, index: index, expected: "text")
        }
        self = text
    }
}

extension Int64: ColumnValue {
    public init(row: Row, index: Int32, name: String) throws {
        guard row.type(index) == SQLITE_INTEGER else { throw row.mismatch(name, index: index, expected: "an integer") }
        self = sqlite3_column_int64(row.handle, index)
    }
}

extension Int: ColumnValue {
    public init(row: Row, index: Int32, name: String) throws {
        self = Int(try Int64(row: row, index: index, name: name))
    }
}

extension Double: ColumnValue {
    public init(row: Row, index: Int32, name: String) throws {
        guard [SQLITE_FLOAT, SQLITE_INTEGER].contains(row.type(index)) else {
            throw row.mismatch(name, index: index, expected: "a real")
        }
        self = sqlite3_column_double(row.handle, index)
    }
}

extension Bool: ColumnValue {
    public init(row: Row, index: Int32, name: String) throws {
        let value = row.type(index) == SQLITE_INTEGER ? sqlite3_column_int64(row.handle, index) : -1
        guard value == 0 || value == 1 else { throw row.mismatch(name, index: index, expected: "0 or 1") }
        self = value == 1
    }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
    @inlinable
    public init(row: Row, index: Int32, name: String) throws {
        self = row.isNull(index) ? nil : try Wrapped(row: row, index: index, name: name)
    }
}

extension ColumnValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    public init(row: Row, index: Int32, name: String) throws {
        let text = try String(row: row, index: index, name: name)
        guard let value = Self(rawValue: text) else {
            throw row.mismatch(name, index: index, expected: "one of " + Self.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = value
    }
}

/// A TEXT column whose type checks the text itself (`init?(rawValue:)`): an open set of names, such as the stage
/// and rendition kinds a registry extends. A type conforms by saying what the text must be.
public protocol CheckedText: ColumnValue, RawRepresentable where RawValue == String {
    /// What the text must be, for the message when it is not: "a name: lowercase letters, digits and hyphens".
    static var expectedText: String { get }
}

extension CheckedText {
    public init(row: Row, index: Int32, name: String) throws {
        let text = try String(row: row, index: index, name: name)
        guard let value = Self(rawValue: text) else { throw row.mismatch(name, index: index, expected: Self.expectedText) }
        self = value
    }
}
