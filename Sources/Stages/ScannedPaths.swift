/// A list of paths kept compactly, for import's scan of a library (`ImportScan.files`): each path as its folder (up to
/// and including its last `/`), kept once for all the paths in it, and its name, the names one after another in one
/// byte buffer. A path costs its name's bytes and 8 more, instead of a `String` of its own (its whole path and about 40
/// bytes of header and allocation): at 10^5 photos about 2 MB instead of 11 (Benchmarks/INVESTIGATION.md, section 37).
/// Reading an element makes its `String`; the list never holds one per path.
///
/// ```
/// var paths = ScannedPaths()
/// paths.append("/photos/2024/a.jpg")   // folder "/photos/2024/" kept once, name "a.jpg"
/// paths.append("/photos/2024/b.jpg")   // the same folder, name "b.jpg"
/// paths[1]                              // "/photos/2024/b.jpg"
/// ```
public struct ScannedPaths: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Each folder's UTF-8, its last byte a `/` (or empty: a path with no `/`).
    private var folders: [[UInt8]] = []
    /// Each folder's place in `folders` (only while the list is made; a few entries a folder).
    private var folderIndex: [[UInt8]: UInt32] = [:]
    /// Each path's folder, as its place in `folders`.
    private var folderOf: [UInt32] = []
    /// Where each path's name ends in `names`; it begins where the one before ends.
    private var ends: [UInt32] = []
    /// Every name's UTF-8, one after another.
    private var names: [UInt8] = []
    /// Whether every byte of every path is ASCII: then the order and the equality of paths are their bytes'.
    private var ascii = true

    public init() {}

    public init(_ paths: some Sequence<String>) {
        for path in paths { append(path) }
    }

    public init(arrayLiteral paths: String...) {
        self.init(paths)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }

    /// The path at `index`, made as it is asked.
    public subscript(index: Int) -> String {
        let folder = folders[Int(folderOf[index])]
        let start = index == 0 ? 0 : Int(ends[index - 1]), end = Int(ends[index])
        return String(unsafeUninitializedCapacity: folder.count + end - start) { buffer in
            _ = buffer.initialize(from: folder)
            names.withUnsafeBufferPointer { names in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[folder.count...])
                    .initialize(from: UnsafeBufferPointer(rebasing: names[start..<end]))
            }
            return folder.count + end - start
        }
    }

    /// Adds `path`, split at its last `/`.
    public mutating func append(_ path: String) {
        var path = path
        path.withUTF8 { bytes in
            let cut = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            let folder = intern(Array(bytes[..<cut]))
            append(name: UnsafeBufferPointer(rebasing: bytes[cut...]), folder: folder)
        }
    }

    /// Adds the path `folder` + `name`, `folder` being what `folder(_:)` gave for it (`FolderScanner`: one folder's
    /// files one after another, its path made once).
    package mutating func append(name: String, folder: UInt32) {
        var name = name
        name.withUTF8 { append(name: $0, folder: folder) }
    }

    /// The folder `prefix` (ending in `/`) as `append(name:folder:)` takes it.
    package mutating func folder(_ prefix: String) -> UInt32 {
        intern(Array(prefix.utf8))
    }

    /// How many bytes the names take (`reserve`).
    package var nameBytes: Int { names.count }

    /// Room for `count` paths whose names take `nameBytes`.
    package mutating func reserve(_ count: Int, nameBytes: Int) {
        folderOf.reserveCapacity(count)
        ends.reserveCapacity(count)
        names.reserveCapacity(nameBytes)
    }

    /// Adds the paths of `other` at `range`, in order.
    public mutating func append(_ other: ScannedPaths, _ range: Range<Int>) {
        var mapped: [UInt32: UInt32] = [:]
        other.names.withUnsafeBufferPointer { names in
            for index in range {
                let theirs = other.folderOf[index]
                let folder: UInt32
                if let known = mapped[theirs] {
                    folder = known
                } else {
                    folder = intern(other.folders[Int(theirs)])
                    mapped[theirs] = folder
                }
                let start = index == 0 ? 0 : Int(other.ends[index - 1])
                append(name: UnsafeBufferPointer(rebasing: names[start..<Int(other.ends[index])]), folder: folder)
            }
        }
    }

    public mutating func append(contentsOf other: ScannedPaths) {
        append(other, other.indices)
    }

    /// The paths at `order`'s indices, in that order (a sorted list, from the order of its indices), made to size.
    public func reordered(_ order: some Collection<Int>) -> ScannedPaths {
        var result = ScannedPaths()
        result.folders = folders
        result.folderIndex = folderIndex
        result.ascii = ascii
        result.folderOf.reserveCapacity(order.count)
        result.ends.reserveCapacity(order.count)
        var size = 0
        for index in order { size += Int(ends[index]) - (index == 0 ? 0 : Int(ends[index - 1])) }
        result.names.reserveCapacity(size)
        names.withUnsafeBufferPointer { names in
            for index in order {
                let start = index == 0 ? 0 : Int(ends[index - 1])
                result.append(name: UnsafeBufferPointer(rebasing: names[start..<Int(ends[index])]), folder: folderOf[index])
            }
        }
        return result
    }

    /// The paths `isKept` takes, by index, in order.
    public func filtered(_ isKept: (Int) -> Bool) -> ScannedPaths {
        reordered(indices.filter(isKept))
    }

    /// The paths `isKept` takes, in order.
    public func kept(where isKept: (String) -> Bool) -> ScannedPaths {
        filtered { isKept(self[$0]) }
    }

    /// The list without its last `count` paths.
    public mutating func removeLast(_ count: Int) {
        folderOf.removeLast(count)
        ends.removeLast(count)
        names.removeLast(names.count - Int(ends.last ?? 0))
    }

    /// Whether the path at `first` sorts before the one at `second` (`String`'s `<`, by bytes where both are ASCII).
    public func precedes(_ first: Int, _ second: Int) -> Bool {
        guard ascii else { return self[first] < self[second] }
        // Two files of one folder (most neighbours): their names decide, compared at once.
        if folderOf[first] == folderOf[second] {
            return names.withUnsafeBufferPointer { names in
                UnsafeBufferPointer(rebasing: names[nameRange(first)]).lexicographicallyPrecedes(UnsafeBufferPointer(rebasing: names[nameRange(second)]))
            }
        }
        return withBytes(first) { a, aName in withBytes(second) { b, bName in ScannedPaths.less(a, aName, b, bName) } }
    }

    /// Where the name of entry `index` is in `names`.
    private func nameRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])
    }

    /// The index of `path` in this list, which must be sorted (`String`'s `<`, as the scan sorts it); nil when it is not
    /// in it. Compares bytes, making no `String`, where both are ASCII. `near`: where the path is likely to be (the
    /// one after the last found, for a caller asking in the list's order), tried first.
    public func sortedIndex(of path: String, near hint: Int? = nil) -> Int? {
        var path = path
        return path.withUTF8 { wanted -> Int? in
            let byBytes = ascii && wanted.allSatisfy { $0 < 0x80 }
            func isAt(_ index: Int) -> Bool {
                byBytes
                    ? withBytes(index) { folder, name in
                        folder.count + name.count == wanted.count && folder.elementsEqual(wanted.prefix(folder.count))
                            && name.elementsEqual(wanted.dropFirst(folder.count)) }
                    : self[index] == String(decoding: wanted, as: UTF8.self)
            }
            if let hint, hint >= 0, hint < count, isAt(hint) { return hint }
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                let before = byBytes
                    ? withBytes(middle) { folder, name in ScannedPaths.less(folder, name, wanted, UnsafeBufferPointer(start: nil, count: 0)) }
                    : self[middle] < String(decoding: wanted, as: UTF8.self)
                if before { low = middle + 1 } else { high = middle }
            }
            return low < count && isAt(low) ? low : nil
        }
    }

    /// Whether the list is sorted, each path before the next (`precedes`).
    public var isSorted: Bool {
        indices.dropLast().allSatisfy { precedes($0, $0 + 1) }
    }

    public static func == (lhs: ScannedPaths, rhs: ScannedPaths) -> Bool {
        lhs.elementsEqual(rhs)
    }

    private mutating func intern(_ folder: [UInt8]) -> UInt32 {
        if let known = folderIndex[folder] { return known }
        let index = UInt32(folders.count)
        folders.append(folder)
        folderIndex[folder] = index
        if ascii, folder.contains(where: { $0 >= 0x80 }) { ascii = false }
        return index
    }

    private mutating func append(name: UnsafeBufferPointer<UInt8>, folder: UInt32) {
        names.append(contentsOf: name)
        // 4 GiB of names, about 2 x 10^8 files: a scan that size would first need more memory than album takes.
        guard let end = UInt32(exactly: names.count) else { fatalError("more than 4 GiB of file names in one scan") }
        ends.append(end)
        folderOf.append(folder)
        if ascii, name.contains(where: { $0 >= 0x80 }) { ascii = false }
    }

    /// The extension of the name at `index`, lowercased; "" for a name without one (or only a leading dot), as
    /// `ImportStage.fileExtension(ofPath:)` has it, read from the name's bytes without making the path.
    public func fileExtension(at index: Int) -> String {
        withBytes(index) { _, name in
            guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return "" }
            return String(decoding: UnsafeBufferPointer(rebasing: name[(dot + 1)...]), as: UTF8.self).lowercased()
        }
    }

    /// Runs `body` with the path at `index` as its folder's bytes and its name's.
    private func withBytes<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> T) -> T {
        let start = index == 0 ? 0 : Int(ends[index - 1]), end = Int(ends[index])
        return folders[Int(folderOf[index])].withUnsafeBufferPointer { folder in
            names.withUnsafeBufferPointer { names in body(folder, UnsafeBufferPointer(rebasing: names[start..<end])) }
        }
    }

    /// Whether the bytes of `a` then `aRest` sort before those of `b` then `bRest`.
    private static func less(_ a: UnsafeBufferPointer<UInt8>, _ aRest: UnsafeBufferPointer<UInt8>,
                             _ b: UnsafeBufferPointer<UInt8>, _ bRest: UnsafeBufferPointer<UInt8>) -> Bool {
        let aCount = a.count + aRest.count, bCount = b.count + bRest.count
        var index = 0
        while index < aCount, index < bCount {
            let x = index < a.count ? a[index] : aRest[index - a.count]
            let y = index < b.count ? b[index] : bRest[index - b.count]
            if x != y { return x < y }
            index += 1
        }
        return aCount < bCount
    }
}
