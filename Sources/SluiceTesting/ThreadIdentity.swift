#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(WinSDK)
import WinSDK
#endif

/// The calling thread's identity, to tell a call made from inside a signal (on the thread
/// delivering it) from one made concurrently on another thread. Only compared for equality.
func currentThreadIdentity() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #elseif canImport(WinSDK)
    UInt(GetCurrentThreadId())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}
