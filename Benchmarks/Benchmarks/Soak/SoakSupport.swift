#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// One value: which sender sent it and its rank in that sender's sequence.
struct Tagged: Sendable {
    let sender: Int
    let rank: Int
}

/// What a soak counted.
struct SoakReport {
    var rounds = 0
    var loops = 0
    var violations = 0
    var sent = 0
}

/// Counters the soak's threads share.
final class SoakCounters: Sendable {
    let stop = Atomic<Bool>(false)
    let loopsDone = Atomic<Bool>(false)
    let sendersStop = Atomic<Bool>(false)
    let rounds = Atomic<Int>(0)
    let loops = Atomic<Int>(0)
    let violations = Atomic<Int>(0)
    let sent = Atomic<Int>(0)

    var report: SoakReport {
        SoakReport(
            rounds: rounds.load(ordering: .relaxed), loops: loops.load(ordering: .relaxed),
            violations: violations.load(ordering: .relaxed), sent: sent.load(ordering: .relaxed))
    }
}

/// One subscriber's check: each sender's ranks only go up.
final class OrderCheck: Sendable {
    let last = Mutex<(Int, Int)>((-1, -1))
    let counters: SoakCounters
    init(_ counters: SoakCounters) { self.counters = counters }

    func see(_ value: Tagged) {
        let inOrder = last.withLock { last -> Bool in
            let previous = value.sender == 0 ? last.0 : last.1
            if value.sender == 0 { last.0 = value.rank } else { last.1 = value.rank }
            return value.rank > previous
        }
        if !inOrder { counters.violations.add(1, ordering: .relaxed) }
    }
}

/// Runs `body` on a new thread; returns a handle to join.
func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box: @unchecked Sendable {  // handed to the thread once, never shared
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    pthread_create(&thread, nil, { context in
        #if canImport(Glibc)
        let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
        #else
        let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
        #endif
        box.body()
        return nil
    }, context)
    #if canImport(Glibc)
    return thread
    #else
    return thread!
    #endif
}

func join(_ thread: pthread_t) { pthread_join(thread, nil) }

/// The process's peak resident set so far, in MiB (getrusage: KiB on Linux, bytes on Darwin).
func peakResidentMiB() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    #if canImport(Darwin)
    return Int(usage.ru_maxrss) >> 20
    #else
    return Int(usage.ru_maxrss) >> 10
    #endif
}

/// Sleeps the calling thread for `seconds` (the soak's clock, not an ordering device).
func sleepSeconds(_ seconds: Double) {
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    nanosleep(&request, nil)
}

/// A publisher shared across the soak's threads: Sluice's `Share` and OpenCombine's types are
/// made for that (every entry point locks) but are not marked `Sendable`.
struct Shared<Value>: @unchecked Sendable {
    let value: Value
}
