#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(WinSDK)
import WinSDK
#endif

/// The platform's lock primitive: `os_unfair_lock` on Darwin, `SRWLOCK` on Windows and a
/// `pthread_mutex_t` elsewhere. Thread Sanitizer understands all three (it does not
/// understand the futexes behind `Synchronization.Mutex` on Linux).
#if canImport(Darwin)
@usableFromInline typealias PlatformLock = os_unfair_lock_s
#elseif canImport(WinSDK)
@usableFromInline typealias PlatformLock = SRWLOCK
#else
@usableFromInline typealias PlatformLock = pthread_mutex_t
#endif

/// Storage for ``Locked``: the protected state in the header, the lock as the one element,
/// so the lock lives at a stable heap address for as long as the buffer.
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

/// A value protected by a lock: the state is reachable only inside ``withLock(_:)``.
///
/// Rule 6 of the design: never call out (to a subscriber, an upstream subscription, a
/// continuation or user code) from inside `withLock`. Decide under the lock, act after it.
///
/// It is `package` (SluiceTesting and the tests share the one lock; `@_spi(Internals) import
/// Sluice` still compiles) and `@usableFromInline`, so that `@inlinable` hot paths can use it
/// and clients specialise them.
@usableFromInline
package struct Locked<State> {
    @usableFromInline
    let buffer: ManagedBuffer<State, PlatformLock>

    /// Creates the lock around an initial state.
    @usableFromInline
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

    /// Runs `body` with exclusive access to the state.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try buffer.withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #elseif canImport(WinSDK)
            AcquireSRWLockExclusive(lock)
            defer { ReleaseSRWLockExclusive(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&state.pointee)
        }
    }
}

// Safe: the state is only reachable through `withLock`, which holds the lock for the whole
// access, and only Sendable state can be shared this way.
extension Locked: @unchecked Sendable where State: Sendable {}
