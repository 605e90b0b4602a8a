# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0
"""The harness of the member portal's browser test (scripts/portal-browser-test) and of the screenshots for the docs
(scripts/portal-screenshots): everything but the steps.

- `Demo`: `vettid demo --serve --output json` started, its one JSON line read and checked, stopped (SIGINT, SIGKILL
  after 10 s), its data directory gone.
- `Phone`: the `vettid` CLI as the member's phone, one profile and configuration directory per device.
- `Browser`: headless Chromium through Selenium, with the waits (a page loaded, the next page after a submit), form
  and element helpers, the cookies for a request from outside the browser (`http`), and `check_page`, the contract
  every page gets: each field labelled, each aria-describedby resolved, an <h1>, and at 320 px no sideways scrolling
  and no short word broken across lines.
- `Camera`: full-height screenshots of a page at 1280 and 320 px (only scripts/portal-screenshots attaches one).
- `check` and `Failure`: a failed expectation with a message that says what was expected and what was found.
- `run_script`: checks the tools (exit 2 when one is missing), runs the steps in order against one demo and one
  browser, and reports the first failure with the page, a screenshot, the HTML and the end of the demo's standard
  error (exit 1).

A step is a function of one argument, the state `begin(portal)` made from the `Portal` (the demo's announcement, the
browser, the directories); it raises `Failure` when the portal does not do what it should and may return a short
detail for the log.
"""

import argparse
import json
import os
import selectors
import shutil
import signal
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
STARTED = time.monotonic()

# The values #vault-status may carry (docs/portal.md, Page contract).
VAULT_STATUSES = {"not_enrolled", "pending", "enrolled", "active", "error"}
CHECK_WIDTH = 1280
NARROW_WIDTH = 320
HEIGHT = 900


class Failure(Exception):
    """A step did not do what the portal's contract says."""


def log(message):
    print(f"[{time.monotonic() - STARTED:6.1f} s] {message}", flush=True)


def check(condition, message):
    """Fails the step with `message` (what was expected and what was found) unless `condition` holds."""
    if not condition:
        raise Failure(message)
    return condition


# MARK: The demo backend


class Demo:
    """`vettid demo --serve --output json`: started, its announcement read, stopped."""

    REQUIRED = ["base_url", "portal_url", "member_email", "member_password", "development_attestation_token",
                "nats_url", "nats_ca_file", "data_directory"]

    def __init__(self, vettid, work):
        self.vettid = vettid
        self.stderr_path = work / "demo.stderr"
        self.process = None
        self.announcement = None

    def start(self, timeout=120):
        self.stderr_file = open(self.stderr_path, "wb")
        # Its own session, so a SIGKILL can take nats-server (its child) with it.
        self.process = subprocess.Popen(
            [str(self.vettid), "demo", "--serve", "--output", "json"], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=self.stderr_file, start_new_session=True)
        line = self._read_line(timeout)
        try:
            announcement = json.loads(line)
        except ValueError:
            raise Failure(f"`vettid demo --serve --output json` printed a line that is not JSON: {line!r}")
        check(isinstance(announcement, dict) and announcement.get("event") == "serving",
              f"the demo's first line is not a `serving` event: {line!r}")
        missing = [key for key in self.REQUIRED if not announcement.get(key)]
        check(not missing, f"the demo's announcement lacks {', '.join(missing)}: {line!r}")
        check(announcement["portal_url"] == announcement["base_url"] + "/portal",
              f"portal_url {announcement['portal_url']} is not base_url + /portal")
        check(Path(announcement["nats_ca_file"]).is_file(), f"nats_ca_file {announcement['nats_ca_file']} is missing")
        self.announcement = announcement
        # Nothing more is expected on standard output; drain it anyway so the demo can never block on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()
        return announcement

    def _read_line(self, timeout):
        fd = self.process.stdout.fileno()
        selector = selectors.DefaultSelector()
        selector.register(fd, selectors.EVENT_READ)
        buffer = b""
        deadline = time.monotonic() + timeout
        try:
            while b"\n" not in buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failure(f"`vettid demo --serve` printed no line within {timeout} s (so far: {buffer!r})")
                if not selector.select(min(left, 0.5)):
                    if self.process.poll() is not None:
                        raise Failure(f"`vettid demo --serve` exited with status {self.process.returncode} "
                                      f"before announcing itself (stdout: {buffer!r})")
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    self.process.wait(timeout=10)
                    raise Failure(f"`vettid demo --serve` closed its output (status {self.process.returncode}) "
                                  f"before announcing itself (stdout: {buffer!r})")
                buffer += chunk
        finally:
            selector.close()
        return buffer.partition(b"\n")[0].decode("utf-8", "replace")

    def _drain(self):
        try:
            while os.read(self.process.stdout.fileno(), 65536):
                pass
        except OSError:
            pass

    def stop(self):
        """SIGINT, then SIGKILL (to its process group) after 10 s. Returns a complaint, or None when it stopped
        cleanly and removed its data."""
        if self.process is None:
            return None
        complaint = None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                complaint = "the demo did not stop within 10 s of SIGINT; killed"
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait()
            if complaint is None and self.process.returncode != 0:
                complaint = f"the demo exited with status {self.process.returncode} after SIGINT"
        else:
            complaint = f"the demo had already exited (status {self.process.returncode})"
        self.stderr_file.close()
        if complaint is None and self.announcement:
            data = Path(self.announcement["data_directory"])
            if data.exists():
                complaint = f"the demo stopped but left its data directory {data}"
        return complaint

    def stderr_tail(self, lines=40):
        try:
            text = self.stderr_path.read_text("utf-8", "replace")
        except OSError:
            return "(no standard error captured)"
        tail = text.splitlines()[-lines:]
        return "\n".join(tail) if tail else "(the demo wrote nothing on standard error)"


# MARK: The CLI as the member's phone


class Phone:
    """One enrolled device: the `vettid` CLI with a profile and a configuration directory of its own."""

    def __init__(self, vettid, work, name):
        self.vettid = vettid
        self.name = name
        self.home = work / name
        self.config = self.home / "config"
        self.home.mkdir(parents=True)
        self.environment = dict(os.environ, HOME=str(self.home), XDG_CONFIG_HOME=str(self.home / "xdg"))
        self.environment.pop("VETTID_GATE_DEVELOPMENT_TOKEN", None)

    def run(self, *arguments, password=None, timeout=120):
        """Runs `vettid ARGUMENTS --profile NAME --config-dir DIR --output json`; the vault password, if any, goes
        to standard input (the CLI reads secrets from a terminal or a pipe, never from arguments or the
        environment: Server/Sources/VettIDCLI/Support/PasswordPrompt.swift)."""
        command = [str(self.vettid), *arguments, "--profile", self.name, "--config-dir", str(self.config),
                   "--output", "json"]
        shown = " ".join(["vettid", *arguments, "--profile", self.name, "--config-dir", "…", "--output", "json"])
        try:
            result = subprocess.run(
                command, input=(password + "\n") if password is not None else "", capture_output=True, text=True,
                timeout=timeout, env=self.environment)
        except subprocess.TimeoutExpired:
            raise Failure(f"`{shown}` did not finish within {timeout} s")
        result.shown = shown
        return result

    def run_ok(self, *arguments, password=None):
        """`run`, which must succeed; its last line of standard output as a JSON object."""
        result = self.run(*arguments, password=password)
        check(result.returncode == 0,
              f"`{result.shown}` failed (status {result.returncode}):\n{result.stderr.strip()}\n"
              f"{result.stdout.strip()}")
        return last_json(result.stdout, result.shown)


def last_json(text, shown):
    lines = [line for line in text.splitlines() if line.strip()]
    check(lines, f"`{shown}` printed nothing")
    try:
        value = json.loads(lines[-1])
    except ValueError:
        raise Failure(f"`{shown}` did not print JSON: {lines[-1]!r}")
    check(isinstance(value, dict), f"`{shown}` printed JSON that is not an object: {lines[-1]!r}")
    return value


def decode_qr(path):
    """The text of the QR code in the image at `path` (zbarimg)."""
    result = subprocess.run(["zbarimg", "--quiet", "--raw", str(path)], capture_output=True, text=True, timeout=60)
    check(result.returncode == 0 and result.stdout.strip(),
          f"zbarimg found no QR code in {path} (status {result.returncode}): {result.stderr.strip()}")
    return result.stdout.strip().splitlines()[0]


# MARK: HTTP outside the browser


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments, **keywords):
        return None


def http(base, method, path, cookie, form=None):
    """One request without following redirects, with the given Cookie header: (status, headers, body)."""
    data = None
    headers = {"Cookie": cookie, "User-Agent": "portal-browser-test (urllib)"}
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode("utf-8", "replace")


# MARK: The browser


class Browser:
    """Headless Chromium at 1280 x 900, driven through Selenium."""

    def __init__(self, base, camera=None):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.base = base
        self.camera = camera
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--hide-scrollbars", f"--window-size={CHECK_WIDTH},{HEIGHT}", "--force-device-scale-factor=1",
                         "--force-color-profile=srgb", "--lang=en-US", "--no-first-run", "--disable-extensions"]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(
            service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
        self.driver.set_page_load_timeout(60)
        self.viewport(CHECK_WIDTH, HEIGHT)

    def quit(self):
        try:
            self.driver.quit()
        except Exception as error:  # the browser may already be gone; nothing else to do
            log(f"note: closing the browser: {error}")

    def version(self):
        return self.driver.capabilities.get("browserVersion")

    # Navigation

    def js(self, script, *arguments):
        # WebDriver's scripts are not page scripts: the portal's CSP (no script at all) does not apply to them.
        return self.driver.execute_script(script, *arguments)

    def url(self):
        return urllib.parse.urlsplit(self.driver.current_url)

    def open(self, path):
        self.driver.get(self.base + path)
        self.wait_loaded()

    def wait_loaded(self):
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def submit(self, action, what):
        """Runs `action` (a click or a key press that submits a form) and waits for the next page.

        The old document is marked through WebDriver before the action; the next page is there once the browser's
        document no longer carries the mark and has finished loading (sturdier than waiting for an element of the
        old page to go stale, which missed a navigation under load once).
        """
        mark = secrets.token_hex(8)
        self.js("document.documentElement.setAttribute('data-test-left', arguments[0])", mark)
        action()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                state = self.js(
                    "return [document.documentElement.getAttribute('data-test-left'), document.readyState]")
            except Exception:
                state = None  # the browser is between documents
            if state and state[0] != mark and state[1] == "complete":
                return
            time.sleep(0.05)
        raise Failure(f"{what}: no new page within 30 s")

    def click_submit(self, css, what):
        """Clicks the button `css` and waits for the page the form leads to."""
        button = self.find(css, what)
        self.submit(button.click, what)

    def expect_path(self, path, what, query=None):
        """The browser is at `path` (and, when given, exactly `query`)."""
        url = self.url()
        check(url.path == path and (query is None or url.query == query),
              f"{what}: expected {path}{'?' + query if query else ''}, the browser is at "
              f"{url.path}{'?' + url.query if url.query else ''}")

    # Elements and forms

    def find(self, css, what):
        """The first element `css` matches; the step fails when there is none."""
        from selenium.webdriver.common.by import By

        found = self.driver.find_elements(By.CSS_SELECTOR, css)
        check(found, f"{what}: the page has no `{css}`")
        return found[0]

    def find_all(self, css):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def attributes(self, css, *names):
        """For each element `css` matches, its attributes `names` (one value, or a tuple of several)."""
        rows = [tuple(element.get_attribute(name) for name in names) for element in self.find_all(css)]
        return [row[0] for row in rows] if len(names) == 1 else rows

    def fill(self, css, text, what, replace=False):
        """Types `text` into the field `css` (after clearing it when `replace`)."""
        field = self.find(css, what)
        if replace:
            field.clear()
        field.send_keys(text)
        return field

    def select(self, css, value, what):
        from selenium.webdriver.support.ui import Select

        Select(self.find(css, what)).select_by_value(value)

    def press(self, keys):
        """Key presses sent to whatever has the focus, as a keyboard would."""
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(keys).perform()

    def focused(self):
        """The focused element as `tag#id.class`, or `nothing`."""
        return self.js("const e = document.activeElement; return e ? (e.tagName.toLowerCase() + "
                       "(e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : '')) : 'nothing'")

    def cookie_header(self):
        """The browser's cookies as a Cookie header, for a request from outside the browser; and their names."""
        cookies = self.driver.get_cookies()
        return "; ".join(f"{c['name']}={c['value']}" for c in cookies), [c["name"] for c in cookies]

    def summary(self):
        """The page as a failure message shows it: URL, title, heading, errors."""
        try:
            return self.js("""
                const text = s => [...document.querySelectorAll(s)].map(e => e.innerText.trim()).filter(t => t);
                return 'at ' + location.pathname + location.search + ', title "' + document.title + '", heading "'
                    + text('h1').join(' / ') + '"' + (text('.form-error, .field-error').length
                    ? ', errors: ' + text('.form-error, .field-error').join(' | ') : '')
                    + (document.querySelector('main > p') && !document.querySelector('form')
                    ? ', says: ' + document.querySelector('main > p').innerText.trim() : '');""")
        except Exception as error:
            return f"(the page could not be read: {error})"

    def vault_status(self, what):
        """#vault-status's data-status, which must be one of the contract's values."""
        status = self.find("#vault-status", what).get_attribute("data-status")
        check(status in VAULT_STATUSES, f"{what}: #vault-status has data-status {status!r}, not one of the contract's")
        return status

    # The contract every page gets

    def check_page(self, name):
        """The checks every page gets (its markup at 1280 px, its layout at 320 px); then the camera, if any,
        takes the page under `name`."""
        self.check_markup(name)
        try:
            self.viewport(NARROW_WIDTH, HEIGHT)
            self.check_narrow_layout(name)
        finally:
            self.viewport(CHECK_WIDTH, HEIGHT)
        if self.camera:
            self.camera.shoot(self, name)

    def check_markup(self, name):
        """Every form field has its <label for=…>, every aria-describedby names elements that exist, <main> has an
        <h1>."""
        unlabeled = self.js("""
            return [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
                .filter(e => !e.id || !document.querySelector('label[for="' + CSS.escape(e.id) + '"]'))
                .map(e => e.outerHTML.slice(0, 160));""")
        check(not unlabeled, f"page {name}: form fields without a <label for=…>: {unlabeled}")
        dangling = self.js("""
            const out = [];
            for (const e of document.querySelectorAll('[aria-describedby]'))
                for (const id of e.getAttribute('aria-describedby').split(/\\s+/).filter(x => x))
                    if (!document.getElementById(id)) out.push((e.id || e.tagName) + ' -> ' + id);
            return out;""")
        check(not dangling, f"page {name}: aria-describedby names elements that do not exist: {dangling}")
        check(self.find_all("main h1"), f"page {name}: no <h1> in <main>")

    def check_narrow_layout(self, name):
        """At 320 px the page does not scroll sideways, and no short word is broken across lines."""
        inner, scroll = self.js("return [window.innerWidth, document.documentElement.scrollWidth]")
        check(inner == NARROW_WIDTH, f"page {name}: the viewport is {inner} px wide, not {NARROW_WIDTH}")
        if scroll > NARROW_WIDTH:
            wide = self.js("""
                const bad = [];
                for (const e of document.querySelectorAll('body *')) {
                    const r = e.getBoundingClientRect();
                    const spills = e.scrollWidth > e.clientWidth + 1 && r.left + e.scrollWidth > 320.5
                        && getComputedStyle(e).overflowX === 'visible';
                    if ((r.right > 320.5 && r.width > 0) || spills) bad.push(e);
                }
                return bad.filter(e => !bad.some(o => o !== e && e.contains(o))).slice(0, 8).map(e => {
                    const r = e.getBoundingClientRect();
                    return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.'
                        + String(e.className).trim().replace(/\\s+/g, '.') : '') + ' (right edge '
                        + Math.round(Math.max(r.right, r.left + e.scrollWidth)) + ' px)';
                });""")
            raise Failure(f"page {name} at {NARROW_WIDTH} px: document.documentElement.scrollWidth is {scroll} "
                          f"(it scrolls sideways); too wide: {', '.join(wide)}")
        # Nothing scrolls, yet a box may still be too narrow for its words: a short word (one that would fit in a
        # third of the screen) broken across lines, like "Sig/n/out" or a caption one letter per line. Long tokens
        # (an email address, a link) may wrap; they have to somewhere.
        broken = self.js("""
            const out = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                let shown = true;
                for (let a = node.parentElement; a && shown; a = a.parentElement) {
                    const s = getComputedStyle(a), r = a.getBoundingClientRect();
                    shown = s.display !== 'none' && s.visibility !== 'hidden' && s.clipPath === 'none'
                        && r.width > 1 && r.right > 0;
                }
                if (!shown) continue;
                // Units a browser breaks between on its own: at white space and after a hyphen.
                for (const match of node.textContent.matchAll(/[^\\s-]+-?|-/g)) {
                    const range = document.createRange();
                    range.setStart(node, match.index);
                    range.setEnd(node, match.index + match[0].length);
                    const rects = [...range.getClientRects()].filter(r => r.width > 0);
                    const lines = new Set(rects.map(r => Math.round(r.top))).size;
                    const width = rects.reduce((sum, r) => sum + r.width, 0);
                    if (lines > 1 && width < 320 / 3) {
                        const e = node.parentElement;
                        const name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                            + (e.className ? '.' + String(e.className).trim().replace(/\\s+/g, '.') : '');
                        out.push('"' + match[0] + '" in ' + name + ' ('
                            + Math.round(e.getBoundingClientRect().width) + ' px wide) is broken over '
                            + lines + ' lines');
                        break;
                    }
                }
                if (out.length >= 8) break;
            }
            return out;""")
        check(not broken, f"page {name} at {NARROW_WIDTH} px: words broken across lines in boxes too narrow "
                          f"for them: {'; '.join(broken)}")

    # Screenshots

    def viewport(self, width, height):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def screenshot(self, path, width):
        """The whole page (its full height) at `width` px, saved as a PNG at `path`."""
        try:
            # The page's own height: measured in a short viewport (scrollHeight is never less than the viewport).
            self.viewport(width, 200)
            height = self.js("return Math.ceil(Math.max(document.documentElement.scrollHeight, "
                             "document.body ? document.body.scrollHeight : 0))")
            self.viewport(width, max(200, min(int(height), 16000)))
            check(self.driver.save_screenshot(str(path)), f"the screenshot {path} was not written")
        finally:
            self.viewport(CHECK_WIDTH, HEIGHT)
        return path

    def save_failure(self, directory):
        """The page as it was when a step failed: FAILED.png (1280 px), FAILED-narrow.png (320 px), FAILED.html."""
        saved = []
        for name, width in (("FAILED.png", CHECK_WIDTH), ("FAILED-narrow.png", NARROW_WIDTH)):
            try:
                self.viewport(width, HEIGHT)
                if self.driver.save_screenshot(str(directory / name)):
                    saved.append(directory / name)
            except Exception:
                pass
        try:
            self.viewport(CHECK_WIDTH, HEIGHT)
            (directory / "FAILED.html").write_text(self.driver.page_source)
            saved.append(directory / "FAILED.html")
        except Exception:
            pass
        return saved


class Camera:
    """Takes each page `Browser.check_page` passed at 1280 and 320 px (full height), numbered in the order of the
    visit: `03-sign-in.png`, `03-sign-in-narrow.png`, …; `shots[name]` is the pair of files."""

    def __init__(self, directory):
        self.directory = directory
        self.shots = {}

    def shoot(self, browser, name):
        number = len(self.shots) + 1
        self.shots[name] = [browser.screenshot(self.directory / f"{number:02d}-{name}{suffix}.png", width)
                            for width, suffix in ((CHECK_WIDTH, ""), (NARROW_WIDTH, "-narrow"))]


# MARK: Running the steps


class Portal:
    """What every step starts from: the demo's announcement, the browser, the CLI, a scratch directory and the
    directory for screenshots."""

    def __init__(self, demo, browser, vettid, work, shots):
        self.demo = demo
        self.base = demo["base_url"]
        self.browser = browser
        self.vettid = vettid
        self.work = work
        self.shots = shots

    def phone(self, name):
        return Phone(self.vettid, self.work, name)

    def http(self, method, path, cookie, form=None):
        return http(self.base, method, path, cookie, form)


def step_title(step):
    return step.__name__.replace("_", " ")


def run_steps(name, steps, begin, vettid, work, shots, camera=None):
    """Starts the demo and the browser, runs `steps` in order on `begin(portal)` until one fails, then closes the
    browser and stops the demo whatever happened. Returns the failure's report, or None when every step passed and
    the demo stopped cleanly."""
    demo = Demo(vettid, work)
    browser = None
    failure = None
    current = "start the demo"
    try:
        announcement = demo.start()
        log(f"ok  demo serving on {announcement['base_url']} (nats {announcement['nats_url']})")
        current = "start the browser"
        browser = Browser(announcement["base_url"], camera)
        log(f"ok  headless Chromium {browser.version()} started")
        state = begin(Portal(announcement, browser, vettid, work, shots))
        for step in steps:
            current = step_title(step)
            detail = step(state)
            log(f"ok  {current}" + (f": {detail}" if detail else ""))
    except Failure as error:
        failure = f"{current}: {error}"
    except Exception as error:  # Selenium, OS and timeout errors fail the run with their message
        failure = f"{current}: {type(error).__name__}: {error}"
    except KeyboardInterrupt:
        failure = f"{current}: interrupted"
    finally:
        saved = []
        if failure and browser is not None:
            failure += "\n  page: " + browser.summary()
            saved = browser.save_failure(shots)
        if browser is not None:
            browser.quit()
        complaint = demo.stop()
        if failure is None and complaint:
            failure = complaint
        if failure:
            print(f"\n{name}: FAILED: {failure}", file=sys.stderr)
            if saved:
                print(f"  the page when it failed: {', '.join(str(p) for p in saved)}", file=sys.stderr)
            print("  the end of the demo's standard error:", file=sys.stderr)
            for line in demo.stderr_tail().splitlines():
                print("    " + line, file=sys.stderr)
        elif complaint is None:
            log("ok  the demo stopped on SIGINT and removed its data")
    return failure


def argument_parser(description):
    """The arguments both scripts take: the vettid binary and the screenshot directory."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("vettid", nargs="?",
                        default=os.environ.get("VETTID") or str(ROOT / ".build/debug/vettid"),
                        help="the vettid binary (default: $VETTID, else .build/debug/vettid)")
    parser.add_argument("--screenshots",
                        default=os.environ.get("PORTAL_SCREENSHOTS") or str(ROOT / ".build-portal-shots"),
                        help="where screenshots go (default: $PORTAL_SCREENSHOTS, else .build-portal-shots/)")
    return parser


def missing_tools(vettid):
    """What is missing to run the steps: the vettid binary, Chromium, its driver, zbarimg, selenium."""
    problems = []
    if not os.access(vettid, os.X_OK):
        problems.append(f"{vettid} is not an executable vettid (build it: scripts/build server --product vettid)")
    for tool, hint in [(os.environ.get("CHROMIUM", "/usr/bin/chromium"), "chromium"),
                       (os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"), "chromium-driver"),
                       (shutil.which("zbarimg") or "/usr/bin/zbarimg", "zbar-tools")]:
        if not os.access(tool, os.X_OK):
            problems.append(f"{tool} is missing (Debian package {hint}; scripts/setup-system installs it)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        problems.append(f"{sys.executable} has no selenium (Debian package python3-selenium; run this script "
                        "with /usr/bin/python3)")
    return problems


def run_script(name, steps, begin, arguments, camera=None):
    """The whole run for a script called `name`: exit status 2 when a tool is missing, 1 on the first failed step
    (or a demo that did not stop cleanly), 0 when every step passed."""
    vettid = Path(arguments.vettid).resolve()
    problems = missing_tools(vettid)
    if problems:
        for problem in problems:
            print(f"{name}: {problem}", file=sys.stderr)
        return 2

    shots = Path(arguments.screenshots).resolve()
    shots.mkdir(parents=True, exist_ok=True)
    for old in [*shots.glob("[0-9][0-9]-*.png"), *shots.glob("qr-*.png"), *shots.glob("FAILED*")]:
        old.unlink()
    # SIGTERM (a CI cancel) stops the demo and the browser like Ctrl-C does.
    def terminated(number, frame):
        raise KeyboardInterrupt()

    signal.signal(signal.SIGTERM, terminated)

    with tempfile.TemporaryDirectory(prefix="vettid-portal-browser-") as directory:
        failure = run_steps(name, steps, begin, vettid, Path(directory), shots, camera)
    print(f"{name}: screenshots in {shots}", flush=True)
    if failure:
        return 1
    log(f"{name}: every step passed")
    return 0
