/// Plays a ``Record`` to one subscriber through a ``SequenceSubscription`` over the recorded array, ending
/// with the recorded completion, so demand, re-entrancy and cancellation are the sequence publisher's; this
/// type adds only what Combine shows of a record's subscription: its description and mirror.
final class RecordSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let playback: SequenceSubscription<Downstream, [Output]>

    /// `output` is not empty: an empty record completes without a subscription of its own.
    init(downstream: Downstream, output: [Output], completion: Subscribers.Completion<Failure>) {
        var iterator = output.makeIterator()
        let first = iterator.next()!
        playback = SequenceSubscription(
            downstream: downstream, sequence: output, iterator: iterator, first: first,
            completion: completion, emitter: { $0.emit($1) })
    }

    /// Delivers up to `demand` more recorded values; `.none` adds nothing, as in Combine.
    func request(_ demand: Subscribers.Demand) { playback.request(demand) }

    func cancel() { playback.cancel() }

    /// The recorded values, or `"Cancelled Events"` once cancelled or completed, as Combine prints it.
    var description: String {
        playback.isTerminated ? "Cancelled Events" : playback.sequence.description
    }

    var customMirror: Mirror {
        let output = playback.isTerminated ? [] : playback.sequence
        return Mirror(self, children: ["sequence": output, "completion": playback.completion])
    }

    var playgroundDescription: Any { description }
}
