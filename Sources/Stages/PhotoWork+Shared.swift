import Vips
import Media

extension PhotoWork {
    /// The shared decode's image for an output bounded to `maxSize` (nil: any size), decoding the original now
    /// when no earlier stage has; nil when no decode is shared or the shared one is smaller than `maxSize`.
    /// - Throws: `DamagedImage` when the original's pixels cannot be decoded, or the decode's other failures.
    mutating func sharedImage(atLeast maxSize: Int? = nil, context: StageContext) throws -> Image? {
        guard let shared, maxSize.map({ $0 <= shared.maxSize }) ?? true else { return nil }
        if let image = shared.image { return image }
        let bytes = try originalBytes(catalogueFolder: context.catalogueFolder)
        let image = try LookRenderer.sharedOriginal(of: bytes, maxSize: shared.maxSize, failOn: context.failOn,
                                                    reserve: context.withPixels)
        self.shared?.image = image
        self.shared?.decodes += 1
        return image
    }

    /// Counts one output derived from the shared decode.
    mutating func sharedOutputMade() { shared?.outputs += 1 }
}
