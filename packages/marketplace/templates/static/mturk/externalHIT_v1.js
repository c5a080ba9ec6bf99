/* global window, document */
/*
 * externalHIT_v1.js as the qrelay marketplace serves it: a compatible implementation,
 * written for this marketplace from the documented behaviour of MTurk's script of the same
 * name (HIT pages load it from s3.amazonaws.com/mturk-public/externalHIT_v1.js; the
 * marketplace rewrites that address to its own copy):
 *   turkGetParam(name, defaultValue)  a query parameter of the page's address, decoded;
 *                                     defaultValue when it is absent
 *   turkGetSubmitToHost()             the decoded turkSubmitTo parameter
 *   turkSetAssignmentID(formId)       puts the assignmentId parameter into the element
 *                                     #assignmentId (a hidden input is added to the form if
 *                                     there is none), points the form (default id
 *                                     "mturk_form") at <turkSubmitTo>/mturk/externalSubmit,
 *                                     and in a preview (ASSIGNMENT_ID_NOT_AVAILABLE)
 *                                     disables #submitButton with a message saying why
 *   gup(name), decode(text)           the raw parameter and its decoding (older pages call them)
 */
(function (global) {
  'use strict';
  var PREVIEW_ID = 'ASSIGNMENT_ID_NOT_AVAILABLE';

  function decode(text) {
    var s = String(text).replace(/\+/g, ' ');
    try {
      return decodeURIComponent(s);
    } catch {
      return s; // a stray % stays as written
    }
  }

  /** The raw (still encoded) value of a query parameter, '' when absent. */
  function gup(name) {
    var query = global.location.search.replace(/^\?/, '');
    var parts = query === '' ? [] : query.split('&');
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf('=');
      var key = eq < 0 ? parts[i] : parts[i].slice(0, eq);
      if (decode(key) === name) return eq < 0 ? '' : parts[i].slice(eq + 1);
    }
    return '';
  }

  function turkGetParam(name, defaultValue) {
    var raw = gup(name);
    if (raw === '') return defaultValue === undefined ? '' : defaultValue;
    return decode(raw);
  }

  function turkGetSubmitToHost() {
    return turkGetParam('turkSubmitTo', '');
  }

  function turkSetAssignmentID(formId) {
    var form = document.getElementById(formId || 'mturk_form');
    var assignmentId = turkGetParam('assignmentId', '');
    var field = document.getElementById('assignmentId');
    if (!field && form) {
      field = document.createElement('input');
      field.type = 'hidden';
      field.id = 'assignmentId';
      field.name = 'assignmentId';
      form.appendChild(field);
    }
    if (field) field.value = assignmentId;
    if (assignmentId === PREVIEW_ID || assignmentId === '') {
      var button = document.getElementById('submitButton');
      if (button) {
        button.disabled = true;
        var message = 'You must ACCEPT the HIT before you can submit the results.';
        if (button.tagName === 'INPUT') button.value = message;
        else button.textContent = message;
      }
    }
    var submitTo = turkGetSubmitToHost();
    if (form && submitTo !== '') form.action = submitTo.replace(/\/+$/, '') + '/mturk/externalSubmit';
  }

  global.gup = gup;
  global.decode = decode;
  global.turkGetParam = turkGetParam;
  global.turkGetSubmitToHost = turkGetSubmitToHost;
  global.turkSetAssignmentID = turkSetAssignmentID;
})(window);
