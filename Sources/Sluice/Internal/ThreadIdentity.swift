#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(WinSDK)
import WinSDK
#endif

/// The calling thread's identity, never 0; only compared for equality.
@inlinable
package func currentThreadIdentity() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #elseif canImport(WinSDK)
    UInt(GetCurrentThreadId())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}
