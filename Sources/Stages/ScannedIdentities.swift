import Catalogue

/// The scan's stat of each path it found (`ImportScan.identities`), kept as three numbers a path (24 bytes) where an
/// array of `FileIdentity?` takes 32: no stat is a size of -1, which no file has.
public struct ScannedIdentities: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    private struct Packed: Sendable, Equatable {
        var bytes: Int
        var inode: Int
        var mtimeNanoseconds: Int
    }

    private var packed: [Packed] = []

    public init() {}

    public init(_ identities: some Sequence<FileIdentity?>) {
        for identity in identities { append(identity) }
    }

    public init(arrayLiteral identities: FileIdentity?...) {
        self.init(identities)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { packed.count }

    public subscript(index: Int) -> FileIdentity? {
        let value = packed[index]
        guard value.bytes >= 0 else { return nil }
        return FileIdentity(bytes: value.bytes, inode: value.inode, mtimeNanoseconds: value.mtimeNanoseconds)
    }

    public mutating func append(_ identity: FileIdentity?) {
        packed.append(identity.map { Packed(bytes: $0.bytes, inode: $0.inode, mtimeNanoseconds: $0.mtimeNanoseconds) }
                      ?? Packed(bytes: -1, inode: 0, mtimeNanoseconds: 0))
    }

    /// The identities at `range` of `other`, added in order.
    public mutating func append(_ other: ScannedIdentities, _ range: Range<Int>) {
        packed += other.packed[range]
    }

    /// The identities at `order`'s indices, in that order, made to size.
    public func reordered(_ order: some Collection<Int>) -> ScannedIdentities {
        var result = ScannedIdentities()
        result.packed.reserveCapacity(order.count)
        for index in order { result.packed.append(packed[index]) }
        return result
    }

    public mutating func reserveCapacity(_ count: Int) {
        packed.reserveCapacity(count)
    }

    public mutating func removeLast(_ count: Int) {
        packed.removeLast(count)
    }
}
