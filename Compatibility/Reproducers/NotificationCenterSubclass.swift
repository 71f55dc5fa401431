// Reproducer for the `toolchain-defect` exclusion of FoundationTests/NotificationCenterTests.swift
// (ExpectedFailures.txt). OpenCombine's test subclasses NotificationCenter to record what a
// publisher does with it. On Apple platforms NotificationCenter's methods are open; in the
// Foundation that Linux toolchains ship (swift-corelibs-foundation, 6.x) `post(_:)`,
// `post(name:object:userInfo:)`, `addObserver(forName:object:queue:using:)` and
// `removeObserver(_:…)` are declared in extensions and cannot be overridden, so the test file
// cannot compile there, whatever Combine implementation it tests. Check with:
//     swiftc -typecheck Compatibility/Reproducers/NotificationCenterSubclass.swift
// On Linux with Swift 6.3.1 it fails with
//     error: overriding non-open instance method outside of its defining module
// (and "instance method 'post' is declared in extension of 'NotificationCenter' and cannot be
// overridden"); on macOS it compiles.
import Foundation

final class RecordingNotificationCenter: NotificationCenter {
    var posted: [Notification] = []

    override func post(_ notification: Notification) {
        posted.append(notification)
        super.post(notification)
    }
}
