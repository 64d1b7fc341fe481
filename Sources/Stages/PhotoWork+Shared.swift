import Vips
import Media

extension PhotoWork {
    /// The shared decode's image for an output bounded to `maxSize` (nil: any size), decoding the original now
    /// when no earlier stage has, with what it was decoded from (`ImageSource.provenance`); nil when no decode is
    /// shared, the shared one is smaller than `maxSize`, or it was decoded from sources `policy` does not allow.
    /// - Throws: `DamagedImage` when the original's pixels cannot be decoded, or the decode's other failures.
    mutating func sharedImage(atLeast maxSize: Int? = nil, policy: SourcePolicy,
                              context: StageContext) throws -> (image: Image, source: String?)? {
        guard let shared, maxSize.map({ $0 <= shared.maxSize }) ?? true, shared.policy.map({ $0 == policy }) ?? true else { return nil }
        if let image = shared.image { return (image, shared.source) }
        let bytes = try originalBytes(catalogueFolder: context.catalogueFolder)
        let (image, source) = try LookRenderer.sharedOriginal(of: bytes, maxSize: shared.maxSize, failOn: context.failOn,
                                                              reserve: context.withPixels, policy: policy)
        self.shared?.image = image
        self.shared?.policy = policy
        self.shared?.source = source
        self.shared?.decodes += 1
        return (image, source)
    }

    /// Counts one output derived from the shared decode.
    mutating func sharedOutputMade() { shared?.outputs += 1 }
}
