// SPDX-License-Identifier: MIT
// touchd's focus reporter for GNOME Shell 45 and later (docs/actions.md, "Following the
// focused app"): the focused window's app id, title and full-screen state, each time one of
// them changes, to the method touchctl follow-focus serves on the session bus.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

const NAME = 'org.touchd.FocusFollower';
const PATH = '/org/touchd/FocusFollower';
const INTERFACE = 'org.touchd.FocusFollower1';

/** Follows `display`'s focused window and reports it on `bus`. */
export class FocusReporter {
    constructor(display, bus) {
        this._display = display;
        this._bus = bus;
        this._window = null;
        this._windowSignals = [];
        this._focusSignal = display.connect('notify::focus-window', () => this._follow());
        // The follower may start after the shell, or restart: it hears the focus when it comes.
        this._watch = Gio.bus_watch_name_on_connection(bus, NAME, Gio.BusNameWatcherFlags.NONE,
            () => this._report(), null);
        this._follow();
    }

    _forgetWindow() {
        for (const id of this._windowSignals) {
            // A window that was closed has let its signals go already.
            try { this._window.disconnect(id); } catch (e) {}
        }
        this._windowSignals = [];
        this._window = null;
    }

    _follow() {
        this._forgetWindow();
        this._window = this._display.focus_window ?? null;
        if (this._window) {
            // A Wayland window's wm-class is its app_id.
            this._windowSignals = ['notify::title', 'notify::fullscreen', 'notify::wm-class']
                .map(signal => this._window.connect(signal, () => this._report()));
        }
        this._report();
    }

    _send(appId, title, fullScreen) {
        // No auto-start and no reply wanted: without a follower the call goes nowhere.
        this._bus.call(NAME, PATH, INTERFACE, 'Focused',
            new GLib.Variant('(ssb)', [appId, title, fullScreen]),
            null, Gio.DBusCallFlags.NO_AUTO_START, -1, null, null);
    }

    _report() {
        const w = this._window;
        if (!w) {
            this._send('', '', false);
            return;
        }
        this._send(w.get_wm_class() ?? '', w.get_title() ?? '', w.is_fullscreen());
    }

    destroy() {
        this._forgetWindow();
        this._display.disconnect(this._focusSignal);
        Gio.bus_unwatch_name(this._watch);
        // Disabled (the screen locked, the extension turned off): the focus is unknown.
        this._send('', '', false);
    }
}

export default class TouchdFocusExtension extends Extension {
    enable() {
        this._reporter = new FocusReporter(global.display, Gio.DBus.session);
    }

    disable() {
        this._reporter?.destroy();
        this._reporter = null;
    }
}
