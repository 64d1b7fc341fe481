extension ExportStage {
    /// Where this export writes for `work`: its template rendered once for each path of the photo's bytes
    /// (`PhotoWork.paths`: its own, then its aliases'), each distinct result once, in that order. A template over a
    /// path's name (`{name}`, `{source-ext}`) gives each alias its own file; any other template gives one file per
    /// photo. `{ext}` is the format this export writes (`format`), the same for every path.
    ///
    /// ```
    /// photo r001.webp, alias "dup copy.webp", to: out/{name}.jpg   → out/r001.jpg, out/dup copy.jpg
    /// the same photo,                         to: out/{hash8}.jpg  → out/1f2e3d4c.jpg
    /// the same photo, format: png,            to: out/{name}.{ext} → out/r001.png, out/dup copy.png
    /// ```
    func targets(of work: PhotoWork) throws -> [String] {
        var targets: [String] = []
        for path in work.paths {
            var named = work.photo
            named.path = path
            let target = try render(named)
            if !targets.contains(target) { targets.append(target) }
        }
        return targets
    }

    /// `to:` rendered for `photo` as this export writes it: `{ext}` is `format`'s extension.
    func render(_ photo: PhotoRecord) throws -> String {
        try to.render(photo, formatExtension: format.fileExtension)
    }
}
