import Foundation
import Sluice

/// `Timer`s whose block captures nothing, for the run-loop scheduler and `Timer.publish`.
///
/// swift-corelibs-foundation (Swift 6.3.1) never releases what the block of
/// `Timer(fire:interval:repeats:block:)` captures, fired and invalidated or not; a block that
/// captures nothing leaks nothing. So each timer's block only looks its action up here, by the
/// timer's identity: a one-shot timer's action is taken out when it fires, a repeating one's
/// when it is invalidated through ``invalidate(_:)``.
enum RunLoopTimers {
    private static let actions = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// A timer that runs `action` at `date`, and every `interval` after if `interval` is
    /// positive; add it to a run loop to start it.
    static func timer(firing date: Date, interval: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Timer {
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
