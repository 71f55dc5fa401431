/// A signal on its way to a scheduler in `delay` and `timeout`: each scheduled run delivers
/// the oldest one waiting, so that signals keep their order on any scheduler.
enum TimedSignal<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}
