// SPDX-License-Identifier: MIT
import Testing
@testable import TouchCore

/// `passThroughEnding: auto`: cancel exactly where the compositor reading the mirror is known to
/// pass libinput's cancel on to apps, lift everywhere else (docs/pass-through.md, "Compositors and cancels").
@Suite struct MirrorEndingChoiceTests {
    static func auto(_ name: String?, _ version: String? = nil) -> MirrorEndingChoice {
        MirrorEndingChoice.decide(.auto, compositor: name.map { ReportedCompositor(name: $0, version: version) })
    }

    @Test("auto is the default and lifts while no compositor is known")
    func unknownLifts() {
        #expect(MirrorEndingSetting.default == .auto)
        #expect(Self.auto(nil) == MirrorEndingChoice(ending: .lift, reason: "auto: compositor unknown"))
        #expect(Self.auto(nil).text == "lift (auto: compositor unknown)")
    }

    @Test("KWin cancels at any version, its version or none")
    func kwinCancels() {
        #expect(Self.auto("kwin_wayland", "5.27.5") == MirrorEndingChoice(ending: .cancel, reason: "auto: kwin_wayland 5.27.5 passes cancels"))
        #expect(Self.auto("kwin_wayland", "5.27.5").text == "cancel (auto: kwin_wayland 5.27.5 passes cancels)")
        #expect(Self.auto("kwin_wayland").ending == .cancel)
        #expect(Self.auto("kwin_wayland", "4:6.3.4-1").ending == .cancel)
    }

    @Test("sway cancels from 1.9 on; before it, or when its version cannot be told, it lifts",
          arguments: [("1.9", MirrorEnding.cancel), ("1.9.0", .cancel), ("1.10", .cancel), ("1.11-rc2", .cancel), ("2.0", .cancel),
                      ("1:1.9-1", .cancel), ("1.8.1", .lift), ("1.7-1", .lift), ("1", .lift), ("v1.9", .lift), ("", .lift)])
    func sway(version: String, ending: MirrorEnding) {
        #expect(Self.auto("sway", version).ending == ending, "sway \(version)")
    }

    @Test("sway without a version, mutter, weston, cage, labwc, Hyprland, phoc and unknown programs lift",
          arguments: ["sway", "gnome-shell", "mutter", "weston", "cage", "labwc", "Hyprland", "phoc", "river", "Xorg"])
    func othersLift(name: String) {
        #expect(Self.auto(name, name == "sway" ? nil : "50.1").ending == .lift, "\(name)")
    }

    @Test("the reason tells what auto saw: a compositor known to drop cancels, or one not known to pass them")
    func reasons() {
        #expect(Self.auto("gnome-shell", "43.9").reason == "auto: gnome-shell 43.9 drops cancels")
        #expect(Self.auto("sway", "1.7").reason == "auto: sway 1.7 drops cancels")
        #expect(Self.auto("sway").reason == "auto: sway not known to pass cancels")
        #expect(Self.auto("river", "0.3").reason == "auto: river 0.3 not known to pass cancels")
    }

    @Test("an explicit ending is kept whatever the compositor")
    func explicitWins() {
        let mutter = ReportedCompositor(name: "gnome-shell", version: "43.9")
        let kwin = ReportedCompositor(name: "kwin_wayland", version: "5.27.5")
        #expect(MirrorEndingChoice.decide(.cancel, compositor: mutter) == MirrorEndingChoice(ending: .cancel, reason: "configured"))
        #expect(MirrorEndingChoice.decide(.lift, compositor: kwin) == MirrorEndingChoice(ending: .lift, reason: "configured"))
        #expect(MirrorEndingChoice.decide(.cancel, compositor: nil).ending == .cancel)
    }

    @Test("version numbers: epoch and Debian revision dropped, numbers compared as numbers")
    func versions() {
        #expect(CompositorCancels.numericVersion("1:1.9-1") == [1, 9])
        #expect(CompositorCancels.numericVersion("5.27.5-2+deb12u2") == [5, 27, 5])
        #expect(CompositorCancels.numericVersion("1.10") == [1, 10])
        #expect(CompositorCancels.numericVersion("1.9.") == [1, 9])
        #expect(CompositorCancels.numericVersion("git") == nil)
        #expect(CompositorCancels.numericVersion("99999999999999999999") == nil)
        #expect(MirrorEndingSetting.allowedText == "auto, cancel or lift")
    }
}
