/* global window, document, URLSearchParams */
// The HIT page's only script (inline; the page's Content-Security-Policy admits it by hash).
// The form works without it: its action is MTurk's externalSubmit (the platform points it at
// the assignment's turkSubmitTo), every answer is `required`. The script adds preview mode,
// the submit URL from turkSubmitTo (the sandbox's), "submit only when every item is answered",
// and what it measures: per-item timers and per-item counts of copies, pastes and focus
// losses (signs of LLM-assisted answers).
(function () {
  'use strict';
  var PREVIEW_ID = 'ASSIGNMENT_ID_NOT_AVAILABLE';
  var TICK_MS = 250;
  var params = new URLSearchParams(window.location.search);
  var assignmentId = params.get('assignmentId') || '';
  var form = document.getElementById('hit-form');
  var submit = document.getElementById('submit-button');
  var progress = document.getElementById('progress');
  var items = Array.prototype.slice.call(form.querySelectorAll('[data-sim-key]'));
  var timers = items.map(function (item) { return item.querySelector('input[data-sim-timer]'); });
  var spent = items.map(function () { return 0; });

  function reveal(id) { document.getElementById(id).hidden = false; }
  function disableAll() {
    Array.prototype.forEach.call(form.querySelectorAll('input, textarea, button, select'), function (el) { el.disabled = true; });
  }

  // MTurk convention: preview pages carry this placeholder instead of an assignment id.
  if (assignmentId === '' || assignmentId === PREVIEW_ID) {
    disableAll();
    reveal('preview-notice');
    return;
  }
  document.getElementById('assignmentId').value = assignmentId;

  var submitTo = params.get('turkSubmitTo') || '';
  var action = null;
  try {
    var base = new URL(submitTo);
    if (base.protocol === 'https:' || base.protocol === 'http:') action = submitTo.replace(/\/+$/, '') + '/mturk/externalSubmit';
  } catch {
    action = null; // not a URL
  }
  if (action === null) {
    disableAll();
    reveal('setup-error');
    return;
  }
  form.setAttribute('action', action);

  function answered(item) { return item.querySelector('input[type="radio"]:checked') !== null; }
  function refresh() {
    var done = 0;
    items.forEach(function (item) {
      var isDone = answered(item);
      item.classList.toggle('answered', isDone);
      if (isDone) done++;
    });
    submit.disabled = done !== items.length;
    progress.textContent = done + ' of ' + items.length + ' answered';
    return done === items.length;
  }

  // Time on task: the item holding the focus, else the one last touched while still in
  // view, else the one nearest the middle of the viewport; counted only while visible.
  var touched = -1;
  var visible = document.visibilityState === 'visible';
  var last = window.performance.now();
  function indexOf(node) {
    for (var i = 0; i < items.length; i++) if (items[i].contains(node)) return i;
    return -1;
  }
  function inView(i) {
    var r = items[i].getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  }
  function current() {
    var focused = document.activeElement ? indexOf(document.activeElement) : -1;
    if (focused >= 0) return focused;
    if (touched >= 0 && inView(touched)) return touched;
    var mid = window.innerHeight / 2;
    var best = -1;
    var bestDistance = Infinity;
    for (var i = 0; i < items.length; i++) {
      var r = items[i].getBoundingClientRect();
      if (r.bottom <= 0 || r.top >= window.innerHeight) continue;
      var distance = r.top <= mid && r.bottom >= mid ? 0 : Math.min(Math.abs(r.top - mid), Math.abs(r.bottom - mid));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    }
    return best;
  }
  function tick() {
    var now = window.performance.now();
    var elapsed = now - last;
    last = now;
    if (!visible) return;
    var i = current();
    if (i < 0) return;
    spent[i] += elapsed;
    timers[i].value = String(Math.round(spent[i]));
  }
  function interacted(event) {
    tick();
    var i = indexOf(event.target);
    if (i >= 0) touched = i;
  }
  document.addEventListener('pointerdown', interacted, true);
  document.addEventListener('focusin', interacted, true);
  document.addEventListener('keydown', interacted, true);
  // Page events, counted on the item they concern: a copy on the item holding the selection
  // (else the current one), a paste on the item pasted into, a focus loss (tab hidden or
  // window blurred; one per time away, however both fire) on the current item.
  function counter(i, kind) { return items[i].querySelector('input[data-sim-event="' + kind + '"]'); }
  function count(i, kind) {
    if (i < 0) return;
    var field = counter(i, kind);
    if (field) field.value = String(Number(field.value || '0') + 1);
  }
  var away = false;
  function leave() {
    if (away) return;
    away = true;
    count(current(), 'focus-loss');
  }
  document.addEventListener('copy', function () {
    var selection = window.getSelection ? window.getSelection() : null;
    var at = selection && selection.anchorNode ? indexOf(selection.anchorNode) : -1;
    count(at >= 0 ? at : current(), 'copy');
  }, true);
  document.addEventListener('paste', function (event) { count(indexOf(event.target), 'paste'); }, true);
  window.addEventListener('blur', function () { tick(); leave(); });
  window.addEventListener('focus', function () { away = false; });
  document.addEventListener('visibilitychange', function () {
    tick();
    visible = document.visibilityState === 'visible';
    if (!visible) leave();
    else if (document.hasFocus()) away = false;
  });
  window.setInterval(tick, TICK_MS);

  form.addEventListener('change', refresh);
  form.addEventListener('submit', function (event) {
    tick();
    if (!refresh()) {
      event.preventDefault();
      return;
    }
    window.setTimeout(function () { submit.disabled = true; }, 0);
  });
  refresh();
})();
