"""Browser tests: headless Debian Chromium driven by Selenium, against a real host.

Selenium is given /usr/bin/chromedriver and /usr/bin/chromium explicitly, so Selenium
Manager never runs (and never downloads anything).
"""
from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


class HostProcess:
    """``cartagena host --headless`` on 127.0.0.1 with a table of bots; its web URL and
    its game port."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        cmd = [sys.executable, "-m", "cartagena_net", "host", "--headless", "--port", "0",
               "--bind", "127.0.0.1", "--discovery", "off", "--no-game-log",
               "--level", "easy", *args]  # quick greedy bots: the page is under test
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env, cwd=str(ROOT))
        self.url = ""
        self.port = 0  # the game port
        self.lines: list[str] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            port = re.search(r"listening on port (\d+)", line)
            if port:
                self.port = int(port.group(1))
            m = re.search(r"web view at (http://\S+/)", line)
            if m:
                self.url = m.group(1)
                return
        self.stop()
        raise RuntimeError(f"the host printed no web URL: {self.lines}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def host_process():
    started: list[HostProcess] = []

    def start(*args: str) -> HostProcess:
        h = HostProcess(*args)
        started.append(h)
        return h
    yield start
    for h in started:
        h.stop()


BROWSER_ARGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-extensions", "--hide-scrollbars",
                "--disable-background-networking", "--disable-sync", "--disable-component-update")


@contextlib.contextmanager
def browser_session(lang: str | None = None):
    """A headless Chromium (its ``Accept-Language`` ``lang``'s, if given), with a profile
    and a TMPDIR of its own (Chromium's singleton folders land there, not in /tmp), for
    the ``with`` block: the browser quits and its folder is removed as the block ends,
    however it ends."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="cartagena-chromium-",
                                     ignore_cleanup_errors=True) as home:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in (*BROWSER_ARGS, f"--user-data-dir={home}/profile"):
            options.add_argument(arg)
        if lang:
            options.add_argument(f"--lang={lang}")
            options.add_experimental_option("prefs", {"intl.accept_languages": lang})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=CHROMEDRIVER, env=dict(os.environ, TMPDIR=home))
        driver = webdriver.Chrome(service=service, options=options)
        try:
            driver.set_page_load_timeout(30)
            yield driver
        finally:
            driver.quit()


@pytest.fixture(scope="module")
def browser():
    with browser_session() as driver:
        yield driver


@pytest.fixture(autouse=True)
def _fresh_page(request):
    """A test sharing the module's browser starts on a blank page with an empty console
    log and no cookies: the last test's page, left open on a host that test stopped,
    would otherwise log its event stream's refused reconnects into this test's log, and
    the last test's seat cookies (a cookie is the address's, whatever the port) would
    still be there beside this test's host's."""
    if "browser" in request.fixturenames:
        driver = request.getfixturevalue("browser")
        driver.get("about:blank")
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        driver.get_log("browser")
    yield
