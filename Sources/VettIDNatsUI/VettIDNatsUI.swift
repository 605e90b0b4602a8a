// VettIDNatsUI: the messaging status view over VettIDNatsViewModels. Every view file is behind
// `#if canImport(SwiftUI)`; on other platforms this module is empty.
