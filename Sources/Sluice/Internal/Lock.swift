#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(WinSDK)
import WinSDK
#endif

/// The platform's lock, which Thread Sanitizer understands (unlike `Synchronization.Mutex`'s futexes).
#if canImport(Darwin)
@usableFromInline typealias PlatformLock = os_unfair_lock_s
#elseif canImport(WinSDK)
@usableFromInline typealias PlatformLock = SRWLOCK
#else
@usableFromInline typealias PlatformLock = pthread_mutex_t
#endif

@inlinable
func lockPlatformLock(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(Darwin)
    os_unfair_lock_lock(lock)
    #elseif canImport(WinSDK)
    AcquireSRWLockExclusive(lock)
    #else
    pthread_mutex_lock(lock)
    #endif
}

@inlinable
func unlockPlatformLock(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(Darwin)
    os_unfair_lock_unlock(lock)
    #elseif canImport(WinSDK)
    ReleaseSRWLockExclusive(lock)
    #else
    pthread_mutex_unlock(lock)
    #endif
}

/// Storage for ``Locked``: the state in the header, the lock as the one element, at a stable heap address.
@usableFromInline
final class LockedBuffer<State>: ManagedBuffer<State, PlatformLock> {
    deinit {
        _ = withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin) || canImport(WinSDK)
            _ = lock
            #else
            pthread_mutex_destroy(lock)
            #endif
        }
    }
}

/// A value protected by a lock: the state is reachable only inside ``withLock(_:)``. Rule 6 of the design:
/// never call out (to a subscriber, an upstream, a continuation or user code) from inside `withLock`.
@usableFromInline
package struct Locked<State> {
    @usableFromInline
    let buffer: ManagedBuffer<State, PlatformLock>

    /// Inlinable: the buffer's generic metadata is looked up once per concrete type, not per creation.
    @inlinable
    package init(_ initial: State) {
        buffer = LockedBuffer<State>.create(minimumCapacity: 1) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
            #elseif canImport(WinSDK)
            InitializeSRWLock(lock)
            #else
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
            #endif
        }
    }

    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try buffer.withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
            lockPlatformLock(lock)
            defer { unlockPlatformLock(lock) }
            return try body(&state.pointee)
        }
    }
}

// Safe: the state is reachable only through `withLock`, which holds the lock throughout; it is Sendable.
extension Locked: @unchecked Sendable where State: Sendable {}

/// A condition variable for threads that wait, under a ``Locked``, for its state to change; made by the
/// first thread that must wait and kept in that state. A `pthread_cond_t` on the lock's mutex, or a
/// `CONDITION_VARIABLE` with the `SRWLOCK`; `os_unfair_lock` has none, so on Darwin it is a mutex and
/// condition of its own with a generation count: a waiter takes the inner mutex before it lets go of the
/// outer lock, so a broadcast made under the outer lock after the waiter decided to wait is never lost.
@usableFromInline
package final class LockCondition {
    #if canImport(Darwin)
    @usableFromInline let inner: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Broadcasts so far, under `inner`.
    @usableFromInline var generation: UInt64 = 0
    #elseif canImport(WinSDK)
    @usableFromInline let condition: UnsafeMutablePointer<CONDITION_VARIABLE>
    #else
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    #endif

    @usableFromInline
    package init() {
        #if canImport(Darwin)
        inner = .allocate(capacity: 1)
        inner.initialize(to: pthread_mutex_t())
        pthread_mutex_init(inner, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
        #elseif canImport(WinSDK)
        condition = .allocate(capacity: 1)
        InitializeConditionVariable(condition)
        #else
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        #if canImport(Darwin)
        pthread_mutex_destroy(inner)
        inner.deallocate()
        pthread_cond_destroy(condition)
        #elseif !canImport(WinSDK)
        pthread_cond_destroy(condition)
        #endif
        condition.deallocate()
    }

    /// Wakes every waiting thread. Called with the lock held (it calls nobody's code).
    @usableFromInline
    package func broadcast() {
        #if canImport(Darwin)
        pthread_mutex_lock(inner)
        generation &+= 1
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(inner)
        #elseif canImport(WinSDK)
        WakeAllConditionVariable(condition)
        #else
        pthread_cond_broadcast(condition)
        #endif
    }

    /// Called holding `lock`: lets go of it until a broadcast (or spurious wake-up), then retakes it.
    @usableFromInline
    func wait(releasing lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
        pthread_mutex_lock(inner)
        let seen = generation
        os_unfair_lock_unlock(lock)
        while generation == seen { pthread_cond_wait(condition, inner) }
        pthread_mutex_unlock(inner)
        os_unfair_lock_lock(lock)
        #elseif canImport(WinSDK)
        _ = SleepConditionVariableSRW(condition, lock, INFINITE, 0)
        #else
        pthread_cond_wait(condition, lock)
        #endif
    }
}

// Safe: the condition lives at a stable address for the object's life, the platform's primitives work from
// any thread, and `generation` (Darwin) is only touched under `inner`.
extension LockCondition: @unchecked Sendable {}

extension Locked {
    /// Runs `body` under the lock and, while it returns a condition, waits on it (lock released) and runs it
    /// again, each time a fresh access to the state. Never call it from a thread the state's change depends
    /// on (a deliverer waiting for its own queue to drain would wait forever): `body` checks that.
    @usableFromInline
    package func wait(while body: (inout State) -> LockCondition?) {
        buffer.withUnsafeMutablePointers { state, lock in
            lockPlatformLock(lock)
            defer { unlockPlatformLock(lock) }
            while let condition = body(&state.pointee) {
                condition.wait(releasing: lock)
            }
        }
    }
}
