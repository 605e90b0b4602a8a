// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

@testable import VettIDViewModels

/// US English in UTC, so formatted dates and numbers are the same on every machine.
let usUTC = PresentationFormat(locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!)

/// 2026-11-25 13:05:00 UTC.
let novemberAfternoon = Date(timeIntervalSince1970: 1_795_611_900)

/// `text` with the narrow and ordinary no-break spaces ICU uses in dates (before AM/PM) as plain spaces.
func plainSpaces(_ text: String) -> String {
    String(text.map { $0 == "\u{202F}" || $0 == "\u{00A0}" ? " " : $0 })
}
