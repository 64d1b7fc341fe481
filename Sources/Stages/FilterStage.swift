import System
import Vips
import Core
import Catalogue
import Media

/// `filter`: gives the photo a new look, non-destructively.
///
/// The look is a recipe of filter steps applied to the original's pixels. The stage records the preset as the
/// photo's `filter` (and its recipe); thumbnails and exports made after it render the look from the original. It
/// writes a full-size filtered image (a rendition, JPEG quality 90, like the gallery app's full images) only with
/// `keep: full-size`; an export of the same encoding then copies it. `preset: none` reverts to the original.
public struct FilterStage: PhotoStage, DeclaredOptions {
    public static let stage = StageName.filter

    /// The preset: a built-in one (none, sepia, noir, vivid) or one from the job's `presets:`.
    public var preset: Preset = Preset(name: "none", recipe: .original)
    /// How the filtered full-size image is stored.
    public var quality: Int = 90
    /// Whether a full-size filtered image is written besides the look.
    public var keep: Keep = .nothing
    /// A camera RAW's embedded preview (when it is full size), or libraw's decode.
    public var raw: RawSource = .preview
    public var select: Selection? = nil

    /// What the stage keeps besides the look it records on the photo.
    public enum Keep: String, Sendable, CaseIterable {
        /// Nothing: thumbnails and exports render the look from the original themselves.
        case nothing = "none"
        /// The full-size filtered image, in the catalogue's `filtered/` (what every filter stage wrote before
        /// the option existed; an export of the same encoding copies it).
        case fullSize = "full-size"
    }

    public init() {}

    /// Every option, declared once: the job file's keys, the parameters hashed into each filtered image's name, the
    /// docs. `intensity`, `amount` and `contrast` tune a built-in preset's primitive, so they are in the recipe.
    public static let options: [StageOption<FilterStage>] = [
        StageOption("preset", .preset(\.preset)),
        StageOption("intensity", .tuning(preset: "sepia", primitive: Sepia.self)),
        StageOption("amount", .tuning(preset: "vivid", primitive: Vivid.self)),
        StageOption("contrast", .tuning(preset: "noir", primitive: Noir.self)),
        StageOption("quality", .recorded(\.quality)),
        // Left out of the parameters at `none`: a look-only stage hashes as every filter stage did before the
        // option, so a catalogue's older runs apply the same parameters (docs/catalogue.md "Up to date").
        .choice("keep", \.keep, unrecorded: .nothing),
        // A camera RAW's full-size image comes from its preview only when the preview is full size.
        .choice("raw", \.raw, scope: .cameraRaw),
        .selection(\.select),
    ]

    public func run(_ work: inout PhotoWork, context: StageContext) throws -> StepResult {
        let photoID = work.photo.id
        let input = work.photo.hash
        let recipeText = preset.recipe.canonical.text
        if preset.recipe.isEmpty {
            let wasFiltered = work.photo.filter != "none"
            if wasFiltered || work.photo.filterRecipe != recipeText {
                try context.catalogue { try $0.setFilter(photo: photoID, name: "none", recipe: recipeText) }
            }
            work.photo.filter = "none"
            work.photo.filterRecipe = recipeText
            work.recipe = .original
            return wasFiltered ? .done(input: input, output: input) : .skipped("already the original look", input: input, output: input)
        }
        work.recipe = preset.recipe
        let name = preset.name
        let needsRecord = work.photo.filter != name || work.photo.filterRecipe != recipeText
        work.photo.filter = name
        work.photo.filterRecipe = recipeText
        guard keep == .fullSize else {
            // The look alone: nothing is rendered, so the photo having the look is the whole of being up to date
            // (`--force` records it again).
            guard needsRecord || context.force else { return .skipped("up to date", input: input, output: work.lookHash) }
            try context.catalogue { try $0.setFilter(photo: photoID, name: name, recipe: recipeText) }
            return .done(input: input, output: work.lookHash)
        }
        let parametersHash = parametersHash(of: work, context: context)
        let existing = try upToDate(work, context: context)
        if !context.force, let existing {
            work.filtered = (existing, quality)
            // The look's image is already there, but switching the photo to it is a change: done, not skipped.
            guard needsRecord else { return .skipped("up to date", input: input, output: existing.fileHash) }
            try context.catalogue { try $0.setFilter(photo: photoID, name: name, recipe: recipeText) }
            return .done(input: input, output: existing.fileHash)
        }
        let bytes = try work.originalBytes(catalogueFolder: context.catalogueFolder)
        let rendered = try LookRenderer.renderFullSize(of: bytes, recipe: preset.recipe, maxSize: nil, format: .jpeg, quality: quality,
                                                       metadata: .stripGPS, failOn: context.failOn, reserve: context.withPixels,
                                                       policy: SourcePolicy(raw: raw, embeddedThumbnail: .ignore))
        let path = RenditionFile.path(in: context.catalogueFolder, area: "filtered", photo: photoID, parametersHash: parametersHash,
                                      inputHash: input, extension: "jpg")
        let rendition = try RenditionFile.write(rendered, to: path, kind: .filtered, photo: photoID,
                                                parametersHash: parametersHash, inputHash: input, context: context)
        try context.catalogue { catalogue in
            try catalogue.record(rendition)
            try catalogue.setFilter(photo: photoID, name: name, recipe: recipeText)
        }
        work.filtered = (rendition, quality)
        return .done(input: input, output: rendition.fileHash, source: rendered.source, parameters: scopedParameters(of: work, context: context))
    }

    public func plan(_ work: inout PhotoWork, context: StageContext) throws -> Bool {
        // As `run` decides: the original look is skipped unless the photo had another one; a look is skipped when
        // the photo already has it and, with `keep: full-size`, its filtered image is recorded and intact (a switch
        // to it is done).
        let recipeText = preset.recipe.canonical.text
        let hasLook = work.photo.filter == preset.name && work.photo.filterRecipe == recipeText
        let skipped = try preset.recipe.isEmpty
            ? work.photo.filter == "none"
            : hasLook && (keep != .fullSize || upToDate(work, context: context) != nil)
        work.recipe = preset.recipe
        work.photo.filter = preset.name
        work.photo.filterRecipe = recipeText
        return skipped
    }

    /// The recorded filtered image of this preset on the photo's original, when its file is intact.
    private func upToDate(_ work: PhotoWork, context: StageContext) throws -> Rendition? {
        let photoID = work.photo.id, input = work.photo.hash
        let parametersHash = parametersHash(of: work, context: context)
        let existing = try context.renditions(of: photoID)
            .last { $0.kind == .filtered && $0.parametersHash == parametersHash && $0.inputHash == input }
        return existing.flatMap { RenditionFile.isIntact($0, in: context) ? $0 : nil }
    }
}
