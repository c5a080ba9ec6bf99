/* global window, document */
// The worker site's only script: when the HIT in the frame has been submitted, the
// frame's answer page says so with postMessage (the frame is sandboxed and may not
// navigate this page itself); move on to the page the frame element names. And the
// frame's height.
(function () {
  'use strict';
  // FrameHeight from the HIT (0: the CSS default); set here because the CSP admits no inline styles
  var sized = document.getElementById('hit-frame');
  var height = sized ? Number(sized.getAttribute('data-height')) : 0;
  if (height > 0) sized.style.height = height + 'px';
  window.addEventListener('message', function (event) {
    var frame = document.getElementById('hit-frame');
    if (!frame || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (!data || data.type !== 'qrelay:submitted') return;
    var next = frame.getAttribute('data-next');
    if (next && next.charAt(0) === '/' && next.charAt(1) !== '/') window.location.assign(next);
  });
})();
