// SPDX-License-Identifier: MIT
import DaemonCommand

/// The touchd executable: touchd's command line (DaemonCommand), as touchctl runs it under the name touchd.
@main
enum TouchdMain {
    static func main() async {
        await Touchd.main(nil)
    }
}
