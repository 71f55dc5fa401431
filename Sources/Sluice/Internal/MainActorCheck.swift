#if canImport(Darwin)
import Darwin
#else
import Dispatch
#endif

/// Whether the caller runs where the main actor runs its work: on Darwin the main thread; elsewhere inside a
/// main-queue block (the main queue need not be drained by the first thread: under `swift test` on Linux it
/// is not). A `false` only makes a caller hop to the main actor instead of running at once: never wrong.
@usableFromInline
func isOnMainActorExecutor() -> Bool {
    #if canImport(Darwin)
    pthread_main_np() != 0
    #else
    DispatchQueue.getSpecific(key: MainQueueMarker.key) != nil
    #endif
}

/// The main actor if the caller runs on it, else `nil`: the isolation of a subscriber made by a
/// Combine signature that has no room for `#isolation` (`assign(to:on:)`).
@usableFromInline
func mainActorIfRunningOnIt() -> (any Actor)? {
    isOnMainActorExecutor() ? MainActor.shared : nil
}

#if !canImport(Darwin)
/// A key set on the main queue only, so that `getSpecific` finds it only inside a main-queue block.
enum MainQueueMarker {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}
#endif
