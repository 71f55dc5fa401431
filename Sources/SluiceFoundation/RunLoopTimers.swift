import Foundation
import Sluice

/// `Timer`s whose block captures nothing: swift-corelibs-foundation (Swift 6.3.1) never releases what the block
/// of `Timer(fire:interval:repeats:block:)` captures. So each block looks its action up here by the timer's
/// identity: a one-shot timer's is taken out when it fires, a repeating one's by ``invalidate(_:)``.
enum RunLoopTimers {
    private static let actions = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// Repeats if `interval` is positive; add it to a run loop to start it.
    static func timer(
        firing date: Date,
        interval: TimeInterval,
        _ action: @escaping @Sendable () -> Void
    ) -> Timer {
        let timer = Timer(fire: date, interval: interval, repeats: interval > 0) { timer in
            let id = ObjectIdentifier(timer)
            let action = actions.withLock { $0[id] }
            if timer.timeInterval <= 0 { forget(timer) }
            action?()
        }
        actions.withLock { $0[ObjectIdentifier(timer)] = action }
        return timer
    }

    /// Invalidates `timer` and lets go of its action.
    static func invalidate(_ timer: Timer) {
        timer.invalidate()
        forget(timer)
    }

    private static func forget(_ timer: Timer) {
        let action = actions.withLock { $0.removeValue(forKey: ObjectIdentifier(timer)) }
        withExtendedLifetime(action) {}  // released here, after unlocking
    }
}
