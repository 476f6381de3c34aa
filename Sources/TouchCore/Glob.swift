// SPDX-License-Identifier: MIT
/// Shell globs as libinput and udev use them (fnmatch without flags): `*`, `?`, `[...]`;
/// quirks files and the configuration's device matches (`match.name`, `match.syspath`).
package enum Glob {
    /// Whether `text` matches `pattern` whole.
    package static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if pi < p.count, let (ok, next) = single(p, pi, t[ti]), ok {
                pi = next; ti += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// Whether the element at `p[i]` (`?`, a bracket class or a literal) matches `c`, and the index after it.
    private static func single(_ p: [Unicode.Scalar], _ i: Int, _ c: Unicode.Scalar) -> (Bool, Int)? {
        if p[i] == "?" { return (true, i + 1) }
        if p[i] == "[", let close = p[(i + 1)...].dropFirst().firstIndex(of: "]") {
            var k = i + 1
            var negate = false
            if p[k] == "!" || p[k] == "^" { negate = true; k += 1 }
            var found = false
            while k < close {
                if k + 2 < close, p[k + 1] == "-" {
                    if p[k] <= c && c <= p[k + 2] { found = true }
                    k += 3
                } else {
                    if p[k] == c { found = true }
                    k += 1
                }
            }
            return (found != negate, close + 1)
        }
        return (p[i] == c, i + 1)
    }
}
