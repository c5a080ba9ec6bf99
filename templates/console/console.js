/* global window, document */
// qrelay console: keeps a running batch's numbers current by polling its /live JSON.
// The pages work without this script; it only updates elements marked data-live="field".
(function () {
  'use strict';
  var url = document.body.getAttribute('data-live-url');
  if (!url) return;
  var lastState = null;
  function update(data) {
    var nodes = document.querySelectorAll('[data-live]');
    for (var i = 0; i < nodes.length; i++) {
      var key = nodes[i].getAttribute('data-live');
      if (Object.prototype.hasOwnProperty.call(data, key)) nodes[i].textContent = String(data[key]);
    }
    // the batch finished or stopped: reload once for the final tables, unless someone is typing
    if (lastState !== null && data.state !== lastState && !document.activeElement.matches('input, textarea, select')) window.location.reload();
    lastState = data.state;
    if (data.live) window.setTimeout(poll, 5000);
  }
  function poll() {
    fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) update(data); else window.setTimeout(poll, 15000); })
      .catch(function () { window.setTimeout(poll, 15000); });
  }
  window.setTimeout(poll, 5000);
})();
