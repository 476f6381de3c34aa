// SPDX-License-Identifier: MIT
/// How a touch the app world already has ends on a pass-through mirror when
/// touchd takes it (a claim: a drag, a system shortcut, a claiming client
/// recognizer) or when it is orphaned (semantics §9, "no app keeps a touch
/// down"; docs/pass-through.md, "How a taken touch ends"). Per device,
/// configuration key `passThroughEnding`.
package enum MirrorEnding: String, Hashable, Sendable, CaseIterable, Codable {
    /// A palm for one frame, then the end: libinput reports `TOUCH_CANCEL`
    /// and no `TOUCH_UP`. Only for compositors that pass libinput's cancel on
    /// to apps (`wl_touch.cancel`); where they drop it, the app keeps the
    /// touch down for ever.
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

    /// What a device gets unless configured: ``lift``, since no compositor of
    /// Debian 12 passes libinput's cancel on (docs/pass-through.md's table).
    package static let `default` = MirrorEnding.lift
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
