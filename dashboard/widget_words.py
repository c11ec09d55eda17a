"""Streamlit's own widget words in the page's language.

Streamlit writes a few words of its widgets in English whatever the page's language: a
code block's copy button is labelled "Copy to clipboard" (its tooltip, and what a screen
reader says), then "Copied". No option changes them. A script in a component's frame
(which shares the page's origin) puts ours in their place in the page's own document: in
what is there now and in every node the page adds or relabels later.
"""

from __future__ import annotations

import json
from typing import Final

import streamlit as st
import streamlit.components.v1 as components

from engine.voice import Lang

#: Streamlit's words and ours, by page language (English: left as Streamlit writes them)
WORDS: Final[dict[str, dict[str, str]]] = {
    "zh": {"Copy to clipboard": "复制", "Copied": "已复制"},
    "en": {},
}

_SCRIPT: Final = """<script>(() => {
const page = window.parent, doc = page.document;
page.chuanmaWords = WORDS;
function fix(node) {
  const words = page.chuanmaWords;
  if (node.nodeType === 3) {
    const said = node.nodeValue.trim();
    if (Object.hasOwn(words, said)) node.nodeValue = words[said];
    return;
  }
  if (node.nodeType !== 1) return;
  for (const el of [node, ...node.querySelectorAll('[aria-label],[title]')]) {
    for (const name of ['aria-label', 'title']) {
      const said = el.getAttribute(name);
      if (said !== null && Object.hasOwn(words, said)) el.setAttribute(name, words[said]);
    }
  }
  const texts = doc.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) fix(text);
}
fix(doc.body);
if (page.chuanmaWordsWatch) return;
page.chuanmaWordsWatch = new MutationObserver(changes => {
  for (const change of changes) {
    if (change.type === 'childList') change.addedNodes.forEach(fix); else fix(change.target);
  }
});
page.chuanmaWordsWatch.observe(doc.body, {subtree: true, childList: true, characterData: true,
  attributes: true, attributeFilter: ['aria-label', 'title']});
})();</script>"""


def script(lang: Lang) -> str:
    """The script that puts ``lang``'s words in place of Streamlit's."""
    return _SCRIPT.replace("WORDS", json.dumps(WORDS[lang], ensure_ascii=False))


def put_widget_words(lang: Lang) -> None:
    """Run the script on this page (in the sidebar: a frame of no height, out of the way).
    On English pages too, so a page switched back from 中文 stops putting Chinese words."""
    with st.sidebar:
        components.html(script(lang), height=0)
