// SPDX-License-Identifier: MIT
/// The physical size of a device's surface and the conversions from raw axis
/// values to normalised coordinates, millimetres and screen pixels.
///
/// Order of operations for screen pixels (docs/units.md): normalise to 0...1
/// -> calibration matrix -> rotation -> scale to the screen's pixels.
package struct DeviceGeometry: Hashable, Sendable {
    /// Where the physical size came from.
    package enum Source: String, Hashable, Sendable, Codable {
        /// The axes' resolution (units per mm).
        case resolution
        /// A per-device override in the configuration.
        case override
        /// A libinput quirk's `AttrSizeHint` or `AttrResolutionHint` (device without resolution).
        case quirk
        /// The documented fallback for resolution 0 (docs/units.md).
        case fallback
    }

    /// The horizontal position axis (`ABS_MT_POSITION_X` on multitouch devices, else `ABS_X`).
    package var xAxis: AbsInfo
    /// The vertical position axis.
    package var yAxis: AbsInfo
    /// Surface width in millimetres.
    package var width: Double
    /// Surface height in millimetres.
    package var height: Double
    /// Where ``width`` and ``height`` came from.
    package var source: Source

    /// Length in mm the longer axis is assumed to span when a device reports no
    /// resolution: 200 mm for touchscreens and pen tablets, 100 mm for touchpads.
    package static func fallbackLongerSide(for classification: DeviceClassification) -> Double {
        if classification.fingerType == .indirect && !classification.hasStylus { return 100 }
        return 200
    }

    /// Creates the geometry of a device; `override` (from ``DeviceMapping/sizeMM``) wins over resolution.
    package init(_ description: DeviceDescription, classification: DeviceClassification, override: SizeMM? = nil) {
        let d = description
        let pair: (UInt16, UInt16)
        if d.absInfo[EventCode.absMTPositionX] != nil && d.absInfo[EventCode.absMTPositionY] != nil,
           classification.contactProtocol != .none && classification.contactProtocol != .singleTouch {
            pair = (EventCode.absMTPositionX, EventCode.absMTPositionY)
        } else if classification.usesSecondaryPositionAxes {
            pair = (EventCode.absZ, EventCode.absRX)
        } else {
            pair = (EventCode.absX, EventCode.absY)
        }
        let x = d.absInfo[pair.0] ?? AbsInfo(minimum: 0, maximum: 1)
        let y = d.absInfo[pair.1] ?? AbsInfo(minimum: 0, maximum: 1)
        self.init(xAxis: x, yAxis: y, fallbackLongerSide: Self.fallbackLongerSide(for: classification), override: override)
    }

    /// Creates a geometry from two axes.
    package init(xAxis: AbsInfo, yAxis: AbsInfo, fallbackLongerSide: Double = 200, override: SizeMM? = nil) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        let sx = max(xAxis.span, 0), sy = max(yAxis.span, 0)
        if let override, override.width > 0, override.height > 0 {
            width = override.width
            height = override.height
            source = .override
        } else if xAxis.resolution > 0 || yAxis.resolution > 0 {
            // One known resolution stands in for a missing one (square units).
            let rx = Double(xAxis.resolution > 0 ? xAxis.resolution : yAxis.resolution)
            let ry = Double(yAxis.resolution > 0 ? yAxis.resolution : xAxis.resolution)
            width = sx / rx
            height = sy / ry
            source = .resolution
        } else {
            let longer = max(sx, sy)
            width = longer > 0 ? fallbackLongerSide * sx / longer : fallbackLongerSide
            height = longer > 0 ? fallbackLongerSide * sy / longer : fallbackLongerSide
            source = .fallback
        }
    }

    /// The physical size.
    package var size: SizeMM { SizeMM(width: width, height: height) }

    /// Axis units per millimetre, horizontally and vertically (derived from the size, so fallbacks and overrides apply).
    package var unitsPerMM: (x: Double, y: Double) {
        (width > 0 ? max(xAxis.span, 0) / width : 0, height > 0 ? max(yAxis.span, 0) / height : 0)
    }

    /// A raw value on `axis` as 0...1 of its range (not clamped).
    @inlinable package static func normalise(_ value: Int32, on axis: AbsInfo) -> Double {
        let span = axis.span
        return span > 0 ? (Double(value) - Double(axis.minimum)) / span : 0
    }

    /// A raw position on the primary axes, normalised to 0...1.
    @inlinable package func normalised(x: Int32, y: Int32) -> Point {
        Point(x: Self.normalise(x, on: xAxis), y: Self.normalise(y, on: yAxis))
    }

    /// A normalised position in millimetres from the top-left corner (device axes).
    @inlinable package func millimetres(normalised p: Point) -> Point {
        Point(x: p.x * width, y: p.y * height)
    }

    /// A raw position in millimetres from the top-left corner (device axes).
    @inlinable package func millimetres(x: Int32, y: Int32) -> Point {
        millimetres(normalised: normalised(x: x, y: y))
    }

    /// A normalised position in screen pixels: calibration, then rotation
    /// (the device's, then the screen's turn undone), then scaling.
    @inlinable package func screenPoint(normalised p: Point, mapping: DeviceMapping, screen: ScreenConfiguration) -> Point {
        let r = mapping.rotation.then(screen.rotation.inverse).apply(mapping.calibration.apply(p))
        return Point(x: r.x * Double(screen.width), y: r.y * Double(screen.height))
    }

    /// A raw position in screen pixels.
    @inlinable package func screenPoint(x: Int32, y: Int32, mapping: DeviceMapping, screen: ScreenConfiguration) -> Point {
        screenPoint(normalised: normalised(x: x, y: y), mapping: mapping, screen: screen)
    }
}
