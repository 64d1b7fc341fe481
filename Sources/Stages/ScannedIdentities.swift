import Catalogue

/// The scan's stat of each path it found (`ImportScan.identities`), kept small: 16 bytes a path while every size and
/// inode fits in 32 bits (files under 4 GiB on a file system with 32-bit inodes, ext4's), else 24 for all of them;
/// an array of `FileIdentity?` takes 32.
///
/// ```
/// var identities: ScannedIdentities = [FileIdentity(bytes: 20, inode: 7, mtimeNanoseconds: 1), nil]   // 16 bytes each
/// identities.append(FileIdentity(bytes: 1 << 33, inode: 8, mtimeNanoseconds: 2))                       // now 24 each
/// identities[1]                                                                                         // nil
/// ```
public struct ScannedIdentities: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    /// An identity whose size and inode are below `UInt32.max`; nil is both at `UInt32.max`.
    private struct Narrow: Sendable {
        var bytes: UInt32
        var inode: UInt32
        var mtimeNanoseconds: Int

        static let none = Narrow(bytes: .max, inode: .max, mtimeNanoseconds: 0)
    }

    /// Any identity; nil is a size of -1, which no file has.
    private struct Wide: Sendable {
        var bytes: Int
        var inode: Int
        var mtimeNanoseconds: Int
    }

    private var narrow: [Narrow] = []
    /// Every identity, once one did not fit `Narrow` (then `narrow` is empty).
    private var wide: [Wide]?

    public init() {}

    public init(_ identities: some Sequence<FileIdentity?>) {
        for identity in identities { append(identity) }
    }

    public init(arrayLiteral identities: FileIdentity?...) {
        self.init(identities)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { wide?.count ?? narrow.count }

    public subscript(index: Int) -> FileIdentity? {
        if let wide {
            let value = wide[index]
            guard value.bytes >= 0 else { return nil }
            return FileIdentity(bytes: value.bytes, inode: value.inode, mtimeNanoseconds: value.mtimeNanoseconds)
        }
        let value = narrow[index]
        guard value.bytes != .max else { return nil }
        return FileIdentity(bytes: Int(value.bytes), inode: Int(value.inode), mtimeNanoseconds: value.mtimeNanoseconds)
    }

    public mutating func append(_ identity: FileIdentity?) {
        if wide == nil {
            guard let identity else { return narrow.append(.none) }
            if identity.bytes >= 0, identity.bytes < UInt32.max, identity.inode >= 0, identity.inode < UInt32.max {
                return narrow.append(Narrow(bytes: UInt32(identity.bytes), inode: UInt32(identity.inode),
                                            mtimeNanoseconds: identity.mtimeNanoseconds))
            }
            widen()
        }
        wide?.append(identity.map { Wide(bytes: $0.bytes, inode: $0.inode, mtimeNanoseconds: $0.mtimeNanoseconds) }
                     ?? Wide(bytes: -1, inode: 0, mtimeNanoseconds: 0))
    }

    /// The identities at `range` of `other`, added in order.
    public mutating func append(_ other: ScannedIdentities, _ range: Range<Int>) {
        if wide == nil, other.wide == nil {
            narrow += other.narrow[range]
        } else {
            for index in range { append(other[index]) }
        }
    }

    /// The identities at `order`'s indices, in that order, made to size.
    public func reordered(_ order: some Collection<Int>) -> ScannedIdentities {
        var result = ScannedIdentities()
        if wide != nil { result.widen() }
        result.reserveCapacity(order.count)
        for index in order { result.append(self[index]) }
        return result
    }

    public mutating func reserveCapacity(_ count: Int) {
        if wide != nil { wide?.reserveCapacity(count) } else { narrow.reserveCapacity(count) }
    }

    public mutating func removeLast(_ count: Int) {
        if wide != nil { wide?.removeLast(count) } else { narrow.removeLast(count) }
    }

    public static func == (lhs: ScannedIdentities, rhs: ScannedIdentities) -> Bool {
        lhs.elementsEqual(rhs)
    }

    /// Keeps every identity wide from now on.
    private mutating func widen() {
        guard wide == nil else { return }
        var all: [Wide] = []
        all.reserveCapacity(narrow.capacity)
        for value in narrow {
            all.append(value.bytes == .max ? Wide(bytes: -1, inode: 0, mtimeNanoseconds: 0)
                       : Wide(bytes: Int(value.bytes), inode: Int(value.inode), mtimeNanoseconds: value.mtimeNanoseconds))
        }
        narrow = []
        wide = all
    }
}
