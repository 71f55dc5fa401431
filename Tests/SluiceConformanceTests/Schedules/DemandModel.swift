// The reference model of demand and the seeded random numbers of the schedule tests.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif
import Sluice

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, seedable generator; the same seed gives
/// the same schedule on every platform.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seeds a schedule test runs: `0..<count`, or only `SLUICE_SEED` when it is set, to
/// replay a failure (`SLUICE_SEED=1234 swift test --filter RandomSchedule`).
enum ScheduleSeeds {
    /// At most this many seeds for the task that sets it: a mutant test runs a schedule
    /// family on a broken operator to see it fail, and needs a few seeds to see that.
    @TaskLocal static var limit = Int.max

    static func seeds(count: Int) -> [UInt64] {
        if let text = getenv("SLUICE_SEED").map({ String(cString: $0) }), let seed = UInt64(text) {
            return [seed]
        }
        return (0..<UInt64(min(count, limit))).map { $0 }
    }
}

/// What a well-behaved publisher may deliver to one subscriber, step by step: the
/// outstanding demand (requests plus the demand returned from each value), the values
/// delivered, and whether the subscription ended (completion or cancel).
///
/// ```
///   active ──complete──▶ completed      (finished delivered once)
///     │
///     └────cancel─────▶ cancelled      (nothing delivered afterwards)
/// ```
struct DemandModel<Value: Equatable> {
    private(set) var outstanding = Subscribers.Demand.none
    private(set) var values: [Value] = []
    private(set) var completed = false
    private(set) var cancelled = false
    /// The demand the subscriber returns from each `receive(_:)`.
    let demandPerValue: Subscribers.Demand

    init(demandPerValue: Subscribers.Demand) { self.demandPerValue = demandPerValue }

    var isTerminated: Bool { completed || cancelled }

    mutating func request(_ demand: Subscribers.Demand) {
        guard !isTerminated else { return }
        outstanding += demand
    }

    mutating func cancel() { cancelled = true }

    /// A value offered by a publisher that drops values without demand (a subject, `Emitting`);
    /// returns whether it is delivered.
    @discardableResult
    mutating func offer(_ value: Value) -> Bool {
        guard !isTerminated, outstanding > 0 else { return false }
        deliver(value)
        return true
    }

    /// Delivers a value the caller knows there is demand for.
    mutating func deliver(_ value: Value) {
        precondition(outstanding > 0 && !isTerminated, "the model delivered beyond demand")
        outstanding -= 1
        values.append(value)
        outstanding += demandPerValue
    }

    mutating func complete() {
        guard !isTerminated else { return }
        completed = true
    }
}

/// Draws the next random operation's arguments.
extension SplitMix64 {
    /// Mostly small demands, sometimes `.unlimited`.
    mutating func demand() -> Subscribers.Demand {
        Int.random(in: 0..<20, using: &self) == 0 ? .unlimited : .max(Int.random(in: 1...3, using: &self))
    }

    /// `.none` or `.max(1)` as the demand returned from each value.
    mutating func demandPerValue() -> Subscribers.Demand {
        Bool.random(using: &self) ? .none : .max(1)
    }
}
