import Foundation
import Sluice
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The subscription of a `URLSession.DataTaskPublisher`: it makes the task at the first demand
/// and delivers the task's result once, unless cancelled first. Each request resumes the task
/// (a running task ignores it), as Combine's does, so a task suspended meanwhile resumes at the
/// next demand.
///
/// ```text
/// waiting ──request──▶ running (task) ──completion handler──▶ ended (value + .finished, or failure)
///    └──────────────┴──cancel (cancels the task)──────────────▶ ended
/// ```
final class DataTaskSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    private enum State {
        case waiting(URLRequest, URLSession, Downstream)
        case running(URLSessionDataTask, Downstream)
        case ended
    }

    let combineIdentifier = CombineIdentifier()
    private let state: Locked<State>

    init(request: URLRequest, session: URLSession, downstream: Downstream) {
        state = Locked(.waiting(request, session, downstream))
    }

    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        let current = state.withLock { $0 }
        if case .running(let task, _) = current { return task.resume() }
        guard case .waiting(let request, let session, let downstream) = current else { return }
        // URLSession wants a `@Sendable` handler, which could not call this generic subscription
        // directly (it would capture the downstream's metatype): see ``CallbackEntry``.
        let completion = CallbackEntry<(Data?, URLResponse?, (any Error)?)> { self.finish($0.0, $0.1, $0.2) }.callback
        let task = session.dataTask(with: request) { data, response, error in completion((data, response, error)) }
        let started = state.withLock { state -> Bool in
            // A cancel, or a request on another thread, may have come meanwhile.
            guard case .waiting = state else { return false }
            state = .running(task, downstream)
            return true
        }
        if started { task.resume() }
    }

    /// The task's completion handler, on the session's delegate queue.
    private func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let downstream = state.withLock { state -> Downstream? in
            guard case .running(_, let downstream) = state else { return nil }
            state = .ended
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
            defer { state = .ended }
            if case .running(let task, _) = state { return task }
            return nil
        }
        task?.cancel()
    }

    var description: String { "DataTaskPublisher" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}
