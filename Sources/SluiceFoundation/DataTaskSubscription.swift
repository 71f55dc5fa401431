import Foundation
import Sluice
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The subscription of a `URLSession.DataTaskPublisher`: it makes the task at the first demand. Each request
/// resumes the task, as Combine's does, so a task suspended meanwhile resumes at the next demand.
///
/// ```text
/// waiting ──request──▶ running (task) ──completion handler──▶ ended (value + .finished, or failure)
///    └──────────────┴──cancel (cancels the task)──────────────▶ ended
/// ```
final class DataTaskSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    private enum Stage {
        case waiting(URLSession.DataTaskPublisher, Downstream)
        case running(URLSessionDataTask, URLSession.DataTaskPublisher, Downstream)
        case ended
    }

    private struct State {
        var stage: Stage
        /// Requested so far, for the mirror (one value is all the task gives).
        var demand = Subscribers.Demand.none
    }

    let combineIdentifier = CombineIdentifier()
    private let state: Locked<State>

    init(parent: URLSession.DataTaskPublisher, downstream: Downstream) {
        state = Locked(State(stage: .waiting(parent, downstream)))
    }

    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let current = state.withLock { state in
            if case .ended = state.stage {} else { state.demand += demand }
            return state.stage
        }
        if case .running(let task, _, _) = current { return task.resume() }
        guard case .waiting(let parent, let downstream) = current else { return }
        // A `@Sendable` handler could not call this generic subscription directly (it would capture the
        // downstream's metatype): see ``CallbackEntry``.
        let completion = CallbackEntry<(Data?, URLResponse?, (any Error)?)> {
            self.finish($0.0, $0.1, $0.2)
        }.callback
        let task = parent.session.dataTask(with: parent.request) { data, response, error in
            completion((data, response, error))
        }
        let started = state.withLock { state -> Bool in
            // A cancel, or a request on another thread, may have come meanwhile.
            guard case .waiting = state.stage else { return false }
            state.stage = .running(task, parent, downstream)
            return true
        }
        if started { task.resume() }
    }

    /// On the session's delegate queue.
    private func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let downstream = state.withLock { state -> Downstream? in
            guard case .running(_, _, let downstream) = state.stage else { return nil }
            state.stage = .ended
            return downstream
        }
        guard let downstream else { return }
        if let error {
            downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        } else if let response {
            _ = downstream.receive((data ?? Data(), response))
            downstream.receive(completion: .finished)
        } else {
            // No response and no error: nothing says what went wrong, as Combine reports it.
            downstream.receive(completion: .failure(URLError(.unknown)))
        }
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            defer { state.stage = .ended }
            if case .running(let task, _, _) = state.stage { return task }
            return nil
        }
        task?.cancel()
    }

    var description: String { "DataTaskPublisher" }

    /// Combine's children: the task once made, the subscriber and `parent` until the end, and the demand so far.
    var customMirror: Mirror {
        let (task, parent, downstream, demand) = state.withLock {
            state -> (URLSessionDataTask?, URLSession.DataTaskPublisher?, Downstream?, Subscribers.Demand) in
            switch state.stage {
            case .waiting(let parent, let downstream): (nil, parent, downstream, state.demand)
            case .running(let task, let parent, let downstream): (task, parent, downstream, state.demand)
            case .ended: (nil, nil, nil, state.demand)
            }
        }
        return Mirror(
            self,
            children: ["task": task as Any, "downstream": downstream as Any, "parent": parent as Any, "demand": demand]
        )
    }

    var playgroundDescription: Any { description }
}
