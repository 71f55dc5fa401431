/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
///
/// Each subscriber receives the recorded values per its demand, then the completion (which
/// follows the last value without waiting for more demand).
///
/// <!-- snippet: RecordReplaysPerDemand -->
/// ```swift
/// let record = Record<Int, Never> { recording in
///     recording.receive(1)
///     recording.receive(2)
///     recording.receive(completion: .finished)
/// }
/// let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .max(1))   // from SluiceTesting
/// record.subscribe(subscriber)    // values == [1], no completion yet
/// subscriber.request(.max(1))     // values == [1, 2], then .finished without more demand
/// ```
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher to interactively record a series of outputs and a completion; without an
    /// explicit completion the recording finishes normally.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.init(recording: recording)
    }

    /// Creates a record publisher from an existing recording.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record publisher to publish the provided output and completion.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.init(recording: Recording(output: output, completion: completion))
    }

    /// Plays the recording to the subscriber, per its demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if recording.output.isEmpty {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
        } else {
            subscriber.receive(subscription: RecordSubscription(
                downstream: subscriber, output: recording.output, completion: recording.completion))
        }
    }
}

extension Record {
    /// A recorded sequence of outputs, followed by a completion value. Recording anything after the
    /// completion is a programming error and traps.
    public struct Recording {
        /// The kind of values recorded.
        public typealias Input = Output

        /// The output which will be sent to a subscriber.
        public private(set) var output: [Output]

        /// The completion which will be sent to a subscriber (`.finished` until one is recorded).
        public private(set) var completion: Subscribers.Completion<Failure>

        private var isCompleted: Bool

        /// Sets up a recording in a state ready to receive output.
        public init() {
            output = []
            completion = .finished
            isCompleted = false
        }

        /// Sets up a complete recording with the specified output and completion.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isCompleted = true
        }

        /// Adds an output to the recording; traps after the completion.
        public mutating func receive(_ input: Input) {
            if isCompleted { Violation.recordingAfterCompletion() }
            output.append(input)
        }

        /// Adds a completion to the recording; traps if one was already recorded.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            if isCompleted { Violation.recordingAfterCompletion() }
            self.completion = completion
            isCompleted = true
        }
    }
}

extension Record: Sendable where Output: Sendable, Failure: Sendable {}
extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}
