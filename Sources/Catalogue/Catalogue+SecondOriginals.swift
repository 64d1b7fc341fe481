import SQLite

extension CatalogueReader {
    /// The second originals of `photo` (a pair's other file), oldest first.
    public func secondOriginals(photo: String) throws -> [SecondOriginal] {
        try fetchAll(SecondOriginal.self, "WHERE photo = ? ORDER BY added, rowid", [.text(photo)])
    }

    /// Every second original in the catalogue, oldest first (what a run's snapshot, verify and `ls` index).
    public func allSecondOriginals() throws -> [SecondOriginal] {
        try fetchAll(SecondOriginal.self, "ORDER BY added, rowid")
    }

    /// The second originals recorded at `path` (one at most: a path is one photo's at a time).
    public func secondOriginals(path: String) throws -> [SecondOriginal] {
        try fetchAll(SecondOriginal.self, "WHERE path = ?", [.text(paths.stored(path))])
    }

    /// The second originals whose file is gone from its path: `album prune` forgets them (the photo stays).
    public func missingSecondOriginals() throws -> [SecondOriginal] {
        try allSecondOriginals().filter(\.isMissing)
    }
}

extension Catalogue {
    /// Records `second` as its photo's second original, or its new hash and stat when the photo has it already.
    public func record(_ second: SecondOriginal) throws {
        try insertRow(second, replacingOn: ["photo", "path"])
    }

    /// Forgets the second originals recorded at `path` for every photo but `keeping`: the file there is now a
    /// photo's own original, or another photo's second one (a path is one thing at a time).
    public func forgetSecondOriginals(path: String, keeping photo: String? = nil) throws {
        try database.run("DELETE FROM second_originals WHERE path = ? AND photo IS NOT ?", [.text(paths.stored(path)), .text(photo)])
    }

    /// Forgets `seconds` (their rows only; their files are originals, never deleted). It opens no transaction of its
    /// own, so a caller may make it part of one (`album prune`'s).
    public func forgetSecondOriginals(_ seconds: [SecondOriginal]) throws {
        for second in seconds {
            try database.run("DELETE FROM second_originals WHERE photo = ? AND path = ?", [.text(second.photo), .text(paths.stored(second.path))])
        }
    }
}
