// SPDX-License-Identifier: MIT
import EngineMessages
import Session
import TouchCore
import Wire

// What `hello`, `device` and `screens` messages list, made from the session's own values at the
// server's edge (the session core reports devices and screens; it knows no protocol value).

extension TouchdConfiguration {
    /// The screens as `hello` lists them: sizes as the user sees each screen.
    package var helloScreens: [HelloScreen] { HelloScreen.list(screens) }
}

extension HelloScreen {
    /// The screens in force (``Session/TouchdConfiguration/screens``) as `hello` and `screens` list them.
    package static func list(_ screens: [ScreenEntry]) -> [HelloScreen] {
        screens.enumerated().map {
            HelloScreen(index: $0.offset, name: $0.element.name, width: $0.element.viewWidth, height: $0.element.viewHeight,
                        rotation: $0.element.rotation.rawValue, insets: $0.element.insets.wire, sizeMM: $0.element.viewSizeMM?.wire)
        }
    }
}

extension TouchSession {
    /// The devices in service as `hello` lists them.
    package var helloDevices: [HelloDevice] { pipeline.devices.map(HelloDevice.init) }
}
