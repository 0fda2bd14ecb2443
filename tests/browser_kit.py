"""What the browser tests share: the phone and desktop contexts, a tap or a click, the start
page's solo race form, and axe-core run in light and dark."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

AXE = Path(__file__).resolve().parent / "web" / "vendor" / "axe-4.10.3.min.js"
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SCHEMES = ("light", "dark")

_AXE_RUN = """async () => (await axe.run(document)).violations.map(v => v.id + ': '
    + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '))"""


def phone_context(
    browser: Browser, width: int = PHONE["width"], height: int = PHONE["height"], **options: Any
) -> BrowserContext:
    """A touch phone of ``width`` x ``height`` CSS px at twice the pixels, with the mobile
    viewport on, as a phone's browser reports itself (390x844 unless told)."""
    return browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        **options,
    )


def fill_race_form(
    page: Page,
    base: str,
    players: int,
    bots: str = "random",
    variants: tuple[str, ...] = (),
    seed: int | None = None,
    phone: bool = False,
) -> None:
    """Open the start page and choose a solo race's settings in its form (:func:`press`);
    the caller presses its Start and waits for the table it wants."""
    page.goto(base + "/")
    setup = ".setup-form:not(.friends-form)"
    press(page, f"{setup} label.pill:has(input[name=players][value='{players}'])", phone)
    press(page, f"{setup} label.pill:has(input[name=bots][value={bots}])", phone)
    for variant in variants:
        page.check(f"{setup} input[name={variant}]")
    if seed is not None:
        page.fill(f"{setup} input[name=seed]", str(seed))


def browser_context(browser: Browser, phone: bool, **options: Any) -> BrowserContext:
    """A touch phone at 390x844 (:func:`phone_context`), or a desktop."""
    if phone:
        return phone_context(browser, **options)
    return browser.new_context(viewport=DESKTOP, **options)


def press(page: Page, selector: str, phone: bool) -> None:
    """A tap on a phone, a click on a desktop."""
    if phone:
        page.tap(selector)
    else:
        page.click(selector)


def axe_violations(page: Page) -> list[str]:
    """What axe-core finds on the page as it is now (the context must bypass the CSP)."""
    page.add_script_tag(path=str(AXE))
    return list(page.evaluate(_AXE_RUN))


def axe_clean(page: Page, where: str, shots: Path | None = None, shot: str = "") -> None:
    """axe-core finds nothing in light and in dark; with ``shots``, a full-page screenshot
    of each scheme named ``{shot}-{scheme}.png`` there."""
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        violations = axe_violations(page)
        assert violations == [], f"{where}, {scheme}: {violations}"
        if shots is not None:
            page.screenshot(path=str(shots / f"{shot}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def no_sideways_scroll(page: Page, where: str) -> None:
    """The page is no wider than its screen. (Measured against the root's client width:
    on a phone, ``window.innerWidth`` grows to fit a page that is too wide.)"""
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, f"{where}: the page scrolls sideways by {overflow}px"


_TEXT_LINES = """(selector) => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(selector));
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
}"""


def text_lines(page: Page, selector: str) -> int:
    """How many lines the first element matching ``selector`` sets its text on."""
    return int(page.evaluate(_TEXT_LINES, selector))


_TAP_TARGET = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return 'no ' + selector;
  el.scrollIntoView({block: 'center'});
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (!hit || !(hit === el || el.contains(hit))) {
    return 'covered by ' + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing');
  }
  return [Math.round(box.width), Math.round(box.height)];
}"""


def tap_target(page: Page, selector: str) -> list[int] | str:
    """Scrolls the first element matching ``selector`` to the middle of the screen: its
    width and height in CSS px when it is on top at its centre, else what is there."""
    found: list[int] | str = page.evaluate(_TAP_TARGET, selector)
    return found


_MOST_CHANGED = """async ([before, after]) => {
  const pixels = async (png) => {
    // From bytes, not a data: address, which the page's content policy would refuse.
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const picture = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
    const canvas = new OffscreenCanvas(picture.width, picture.height);
    const drawing = canvas.getContext('2d');
    drawing.drawImage(picture, 0, 0);
    return drawing.getImageData(0, 0, picture.width, picture.height).data;
  };
  const [a, b] = [await pixels(before), await pixels(after)];
  if (a.length !== b.length) return 255;
  let most = 0;
  for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(a[i] - b[i]));
  return most;
}"""


def most_changed(page: Page, before: bytes, after: bytes) -> int:
    """The largest change of any colour channel (0–255) between two screenshots of the
    same size, compared in the page's own canvas."""
    pngs = [base64.b64encode(shot).decode() for shot in (before, after)]
    return int(page.evaluate(_MOST_CHANGED, pngs))
