// SPDX-License-Identifier: MIT
import Testing
import TouchCore

/// fnmatch's patterns as quirks files and device matches use them.
@Suite("Glob")
struct GlobTests {
    @Test("* and ? match any run and any one character; the whole text must match")
    func starAndQuestion() {
        #expect(Glob.matches("Atmel maXTouch*", "Atmel maXTouch Touchscreen"))
        #expect(Glob.matches("*Touchscreen*", "Atmel maXTouch Touchscreen"))
        #expect(!Glob.matches("Atmel", "Atmel maXTouch Touchscreen"))
        #expect(Glob.matches("ELAN?000:00 04F3:*", "ELAN2000:00 04F3:2A2C"))
        #expect(!Glob.matches("ELAN?000", "ELAN000"))
        #expect(Glob.matches("*", ""))
        #expect(Glob.matches("a*b*c", "aXXbYYc") && !Glob.matches("a*b*c", "aXXbYY"))
    }

    @Test("[...] classes and ranges, [!...] negation, as libinput's dmi matches write them")
    func classes() {
        #expect(Glob.matches("dmi:*svn[Aa]pple*", "dmi:bvnApple:svnApple Inc.:pnMacBookPro11,1"))
        #expect(Glob.matches("dmi:*svn[Aa]pple*", "dmi:svnapple"))
        #expect(Glob.matches("event[0-9]", "event7") && !Glob.matches("event[0-9]", "eventa"))
        #expect(Glob.matches("[!x]y", "ay") && !Glob.matches("[!x]y", "xy"))
    }
}
