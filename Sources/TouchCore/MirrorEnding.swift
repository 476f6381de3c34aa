// SPDX-License-Identifier: MIT
/// How a touch the app world already has ends on a pass-through mirror when
/// touchd takes it (a claim: a drag, a system shortcut, a claiming client
/// recognizer) or when it is orphaned (semantics §9, "no app keeps a touch
/// down"; docs/pass-through.md, "How a taken touch ends"). Per device,
/// configuration key `passThroughEnding` (``MirrorEndingSetting``: `auto`
/// decides between these two, ``MirrorEndingChoice``).
package enum MirrorEnding: String, Hashable, Sendable, CaseIterable, Codable {
    /// A palm for one frame, then the end: libinput reports `TOUCH_CANCEL`
    /// and no `TOUCH_UP`. Only for compositors that pass libinput's cancel on
    /// to apps (`wl_touch.cancel`); where they drop it, the app keeps the
    /// touch down for ever. `wl_touch.cancel` ends every touch the app has,
    /// so a mirror cancels only when every contact down on it is taken in
    /// the same frame; a taken contact among others still down ends as
    /// ``lift`` (``MirrorEventWriter``).
    case cancel
    /// An up the app cannot take for a click or a fling, which every
    /// compositor passes on: the contact stops where the app last saw it;
    /// when it had not moved past a tap's slop yet, it goes
    /// ``MirrorLiftTiming/excursionMM`` away and back (every toolkit drops a
    /// click once the touch leaves its slop; the net scroll is nil); it then
    /// holds still ``MirrorLiftTiming/stillMilliseconds`` (velocity trackers
    /// then see zero: no fling) and lifts no sooner than
    /// ``MirrorLiftTiming/notBeforeMilliseconds`` after its down (never a
    /// tap-shaped down and up). The default.
    case lift

    /// What a mirror uses until something says otherwise: ``lift``, which
    /// every compositor passes on (docs/pass-through.md's table).
    package static let `default` = MirrorEnding.lift
}

/// The configuration's word for how a taken touch ends (device key
/// `passThroughEnding`): one of the two endings, or `auto`, which picks one
/// from what touchd knows of the compositor reading the mirror
/// (``MirrorEndingChoice/decide(_:compositor:)``).
package enum MirrorEndingSetting: String, Hashable, Sendable, CaseIterable, Codable {
    /// ``MirrorEnding/cancel`` where the compositor is known to pass cancels on to apps, else ``MirrorEnding/lift``.
    case auto
    /// Always ``MirrorEnding/cancel``.
    case cancel
    /// Always ``MirrorEnding/lift``.
    case lift

    /// What a device gets unless configured.
    package static let `default` = MirrorEndingSetting.auto

    /// The allowed words, for errors: `auto, cancel or lift`.
    package static var allowedText: String {
        let words = allCases.map(\.rawValue)
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}

/// The compositor reading the mirrors, as an agent in the seat's active
/// session reports it (the `compositor` request: docs/protocol.md): the
/// program that has a mirror's event node open, and its version when the
/// agent could tell.
package struct ReportedCompositor: Hashable, Sendable {
    /// The program's name (`kwin_wayland`, `sway`, `gnome-shell`), as `/proc/PID/comm` or its executable says.
    package var name: String
    /// Its version (`5.27.5`, a Debian version such as `1:1.9-1` too), nil when unknown.
    package var version: String?

    package init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }

    /// `kwin_wayland 5.27.5`, or the name alone.
    package var text: String { version.map { "\(name) \($0)" } ?? name }
}

/// Which compositors pass libinput's `TOUCH_CANCEL` on to apps as
/// `wl_touch.cancel`: the one place `auto` learns it (docs/pass-through.md,
/// "Compositors and cancels", says where each answer comes from).
package enum CompositorCancels {
    /// What is known of a compositor's handling of cancels.
    package enum Verdict: Hashable, Sendable {
        /// Apps get `wl_touch.cancel`.
        case passes
        /// Apps never hear of the cancel: their touch stays down.
        case drops
        /// Not known to pass cancels on (an unknown program, or a version that cannot be told).
        case unknown
    }

    /// sway passes cancels from this version on (`cursor.c` handle_touch_cancel, 1.9).
    package static let swayPassesFrom = [1, 9]

    /// The verdict for a program name and version.
    package static func verdict(name: String, version: String?) -> Verdict {
        switch name.lowercased() {
        case "kwin_wayland", "kwin_wayland_wrapper", "kwin":
            // Every KWin with libinput routes touchCanceled to notifyTouchCancel (measured with 5.27).
            return .passes
        case "sway":
            guard let v = version.flatMap(numericVersion) else { return .unknown }
            return v.lexicographicallyPrecedes(swayPassesFrom) ? .drops : .passes
        case "gnome-shell", "mutter", "mutter-devkit", "weston", "cage", "labwc", "hyprland", "phoc":
            // mutter 43 measured; mutter 48-50 uncertain, so no version of it counts as passing.
            return .drops
        default:
            return .unknown
        }
    }

    /// The numbers of a version (`1:1.9-2` and `1.9.0` give [1, 9] and [1, 9, 0]; `1.10` is after
    /// `1.9`): the epoch and the Debian revision dropped, then the dotted numbers up to the first other
    /// character; nil when it starts with none.
    package static func numericVersion(_ text: String) -> [Int]? {
        var s = Substring(text)
        if let colon = s.firstIndex(of: ":") { s = s[s.index(after: colon)...] }
        var numbers: [Int] = []
        var current: Int?
        for ch in s {
            if let d = ch.wholeNumberValue, ch.isASCII {
                current = (current ?? 0) &* 10 &+ d
                if current! > 1_000_000 { return nil }
            } else if ch == ".", let c = current {
                numbers.append(c)
                current = nil
            } else {
                break
            }
        }
        if let current { numbers.append(current) }
        return numbers.isEmpty ? nil : numbers
    }
}

/// The ending a mirror uses and why (`touchctl devices --running`, `hello`'s `endingReason`).
package struct MirrorEndingChoice: Hashable, Sendable {
    /// The ending.
    package var ending: MirrorEnding
    /// Why: `configured`, `auto: kwin_wayland 5.27.5 passes cancels`, `auto: compositor unknown`.
    package var reason: String

    package init(ending: MirrorEnding, reason: String) {
        self.ending = ending
        self.reason = reason
    }

    /// `cancel (auto: kwin_wayland 5.27.5 passes cancels)`.
    package var text: String { "\(ending.rawValue) (\(reason))" }

    /// The ending for a device's setting, given the compositor an agent in the seat's active session
    /// reported (nil: none did). `auto` cancels only where the compositor is known to pass cancels on;
    /// anything unknown lifts, which no compositor leaves stuck.
    package static func decide(_ setting: MirrorEndingSetting, compositor: ReportedCompositor?) -> MirrorEndingChoice {
        switch setting {
        case .cancel: return MirrorEndingChoice(ending: .cancel, reason: "configured")
        case .lift: return MirrorEndingChoice(ending: .lift, reason: "configured")
        case .auto:
            guard let compositor else { return MirrorEndingChoice(ending: .lift, reason: "auto: compositor unknown") }
            switch CompositorCancels.verdict(name: compositor.name, version: compositor.version) {
            case .passes:
                return MirrorEndingChoice(ending: .cancel, reason: "auto: \(compositor.text) passes cancels")
            case .drops:
                return MirrorEndingChoice(ending: .lift, reason: "auto: \(compositor.text) drops cancels")
            case .unknown:
                return MirrorEndingChoice(ending: .lift, reason: "auto: \(compositor.text) not known to pass cancels")
            }
        }
    }
}

/// The timing of ``MirrorEnding/lift``.
package enum MirrorLiftTiming {
    /// How far a contact that has not left a tap's slop goes and comes back
    /// (toolkits' slops are 8 to 16 px, 2 to 4 mm on a panel).
    package static let excursionMM = 6.0
    /// How long after going out it comes back (more than a 60 Hz frame, so a
    /// toolkit that merges the motions of one frame still sees it leave).
    package static let returnMilliseconds = 50.0
    /// How long it holds still before the up: longer than the sampling
    /// window of velocity trackers (GTK's swipe 150 ms, Android's 100 ms,
    /// Chromium's 40 ms stop detection), so no fling.
    package static let stillMilliseconds = 200.0
    /// The earliest up after the down: later than a tap (the compositor test
    /// calls down-to-up within 300 ms and 10 px a tap).
    package static let notBeforeMilliseconds = 350.0
}
