// SPDX-License-Identifier: MIT
import Testing
import TouchCore

/// Conditions on the focused app, and what holds while the focus is unknown.
@Suite("Per-app conditions")
struct AppConditionTests {
    @Test("apps and notApps are globs on the whole id; fullScreen asks the window; every key must hold")
    func holds() {
        let game = FocusedApp(appID: "com.example.game", fullScreen: true)
        let browser = FocusedApp(appID: "org.mozilla.firefox")
        #expect(AppCondition(apps: ["com.example.*"]).holds(for: game))
        #expect(!AppCondition(apps: ["com.example"]).holds(for: game), "a glob matches the whole id")
        #expect(!AppCondition(notApps: ["*.game"]).holds(for: game))
        #expect(AppCondition(notApps: ["*.game"]).holds(for: browser))
        #expect(AppCondition(fullScreen: true).holds(for: game) && !AppCondition(fullScreen: true).holds(for: browser))
        #expect(!AppCondition(apps: ["org.*"], fullScreen: true).holds(for: browser))
        #expect(AppCondition(apps: ["org.[lm]ozilla.*"]).holds(for: browser))
    }

    @Test("unknown focus: an app with no id, not full-screen: apps and fullScreen true fail, notApps and fullScreen false hold")
    func unknown() {
        #expect(AppCondition().holds(for: nil))
        #expect(!AppCondition(apps: ["*"]).holds(for: nil))
        #expect(AppCondition(notApps: ["*"]).holds(for: nil))
        #expect(!AppCondition(fullScreen: true).holds(for: nil))
        #expect(AppCondition(fullScreen: false).holds(for: nil))
    }

    @Test("a malformed glob is named: empty, or a class not closed")
    func globProblems() {
        #expect(AppCondition.globProblem("org.*") == nil)
        #expect(AppCondition.globProblem("[a-z]*") == nil)
        #expect(AppCondition.globProblem("[]]x") == nil, "a ] first in a class is a member")
        #expect(AppCondition.globProblem("")?.contains("empty") == true)
        #expect(AppCondition.globProblem("org.[a-")?.contains("'[' at 5 is not closed") == true)
        #expect(AppCondition.globProblem("[]x") != nil)
    }
}
