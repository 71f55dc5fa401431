import Sluice
import SluiceTesting

/// The scheduler hops in the registry: `receive(on:)` and `subscribe(on:)`.
///
/// Over the immediate scheduler each hop is checked over every operator upstream: its own
/// queue, demand, re-entrancy and cancel, with the signals delivered inside the test's calls.
/// On real queues (where the subscription itself arrives later, which the registry's misuse
/// rules do not wait for) they are checked by `ReceiveOnTests` and `SubscribeOnTests`, under
/// Thread Sanitizer in CI.
extension Registry {
    static let schedulingOperators: [(name: String, transform: Transform)] = [
        ("receive(on: ImmediateScheduler)", { $0.receive(on: ImmediateScheduler.shared) }),
        ("subscribe(on: ImmediateScheduler)", { $0.subscribe(on: ImmediateScheduler.shared) }),
    ]

    static let scheduling: [Entry] = schedulingOperators.flatMap { hop in
        upstreams(of: hop.name).map { upstreamName in
            operatorEntry(hop.name, hop.transform, over: (core + subjects + bridge).first { $0.name == upstreamName }!)
        }
    }

    /// `subscribe(on:)` an immediate scheduler traps on a request made from inside its upstream's
    /// `request(_:)`, as Combine's crashes there (`SubscribeOnTests`); over an upstream that sends inside
    /// `request` (`Publishers.Sequence`, `Record`) every request from inside `receive(_:)` is one, which
    /// the rules make. So it is checked over the upstreams that send from elsewhere.
    static func upstreams(of hop: String) -> [String] {
        guard hop.hasPrefix("subscribe(on:") else { return operatorUpstreams }
        return operatorUpstreams.filter { ["PassthroughSubject", "PassthroughSubject(never-ending)", "Producer"].contains($0) }
    }
}
