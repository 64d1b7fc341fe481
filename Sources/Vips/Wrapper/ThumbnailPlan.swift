internal import CVips

/// How a thumbnail is split between `vips_thumbnail` and album, so that no operation's build computes pixels.
///
/// libvips 8.14's `vips_thumbnail` makes a cropped or rotated thumbnail in memory inside its build
/// (`vips_image_copy_memory`, then `vips_autorot` and `vips_smartcrop`). Builds run under `ProgramLock` while ORC
/// is on, so two workers' decodes ran one after the other (Benchmarks/INVESTIGATION.md, section 7). With this plan
/// `vips_thumbnail` only scales (no crop, no rotation: its build computes nothing), and album does the rest on the
/// scaled pixels after copying them to memory outside the lock: the same steps libvips takes, in its order.
///
/// The scale is libvips' own. Cropping to fill a box scales by the smaller of the two shrinks (`width ÷ box width`,
/// `height ÷ box height`); fitting scales by the larger. So the cropping thumbnail is asked to fit a box that is
/// unbounded (`VIPS_MAX_COORD`) on the side that would have been cropped: the larger shrink is then the one libvips
/// would have used to fill. The box is the stored image's: an orientation of 5 to 8 swaps it, as libvips does.
struct ThumbnailPlan {
    let geometry: ThumbnailGeometry
    let orientation: Int
    /// The side of a box that does not bound the scale (`VIPS_MAX_COORD`).
    static let unbounded = Int(VIPS_MAX_COORD)

    /// What `vips_thumbnail` is asked for.
    let box: (width: Int, height: Int)
    let libvipsCrop: ThumbnailGeometry.Crop
    let libvipsRotates: Bool

    /// - Parameter splitting: false for libvips' own path, rotation and crop inside `vips_thumbnail`.
    init(_ geometry: ThumbnailGeometry, storedWidth: Int, storedHeight: Int, orientation: Int, splitting: Bool = true) {
        self.geometry = geometry
        self.orientation = orientation
        // An upright fit has nothing to finish, and its build computes nothing. A forced size distorts rather than
        // crops: libvips' own path then too (its crop of an exactly sized image is a no-op; only a rotation computes
        // in its build).
        guard splitting, geometry.crop != .none || orientation != 1, geometry.sizing != .force else {
            (box, libvipsCrop, libvipsRotates) = ((geometry.width, geometry.height), geometry.crop, true)
            return
        }
        let (w, h) = orientation >= 5 ? (geometry.height, geometry.width) : (geometry.width, geometry.height)
        if geometry.crop == .none {
            box = (w, h)
        } else if Double(storedWidth) / Double(w) < Double(storedHeight) / Double(h) {
            box = (w, Self.unbounded)
        } else {
            box = (Self.unbounded, h)
        }
        (libvipsCrop, libvipsRotates) = (.none, false)
    }

    /// Whether album rotates or crops after `vips_thumbnail` has scaled.
    var finishesHere: Bool { !libvipsRotates }

    /// A rectangle in an image's own pixel grid.
    struct Area: Equatable {
        var left, top, width, height: Int
    }

    /// The centre crop of a scaled image stored `storedWidth`×`storedHeight`, in its stored grid: the rectangle
    /// `vips_smartcrop` keeps once the image is upright (the box, or the image where it is smaller, offset by half
    /// the excess rounded down), turned back through the orientation so that it can be cut before the rotation.
    func centreCrop(storedWidth sw: Int, storedHeight sh: Int) -> Area {
        let swaps = orientation >= 5
        let (uw, uh) = swaps ? (sh, sw) : (sw, sh)
        let (w, h) = (min(geometry.width, uw), min(geometry.height, uh))
        let (left, top) = ((uw - w) / 2, (uh - h) / 2)
        // Upright (x, y) from stored (sx, sy), per EXIF orientation: 2 mirrors x, 3 turns by 180°, 4 mirrors y,
        // 5 transposes, 6 is x = sh-1-sy, y = sx, 7 transverses, 8 is x = sy, y = sw-1-sx. Each inverted on a
        // rectangle, whose far edge is its near edge plus its size.
        switch orientation {
        case 2: return Area(left: sw - left - w, top: top, width: w, height: h)
        case 3: return Area(left: sw - left - w, top: sh - top - h, width: w, height: h)
        case 4: return Area(left: left, top: sh - top - h, width: w, height: h)
        case 5: return Area(left: top, top: left, width: h, height: w)
        case 6: return Area(left: top, top: sh - left - w, width: h, height: w)
        case 7: return Area(left: sw - top - h, top: sh - left - w, width: h, height: w)
        case 8: return Area(left: sw - top - h, top: left, width: h, height: w)
        default: return Area(left: left, top: top, width: w, height: h)
        }
    }
}
