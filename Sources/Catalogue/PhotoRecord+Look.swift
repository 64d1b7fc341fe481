import Core

extension PhotoRecord {
    /// The identity of the photo's current look (`filter_recipe`): the input hash its thumbnails and exports of the
    /// look record (`LookHash`, the same rule as `PhotoWork.lookHash`).
    public var lookHash: String { LookHash.of(original: hash, recipe: filterRecipe) }
}
