/* global window, document, customElements, HTMLElement, Event */
/*
 * crowd-html-elements.js as the qrelay marketplace serves it: a compatible implementation,
 * written for this marketplace from the documented behaviour of the Crowd HTML Elements
 * (HIT pages load them from assets.crowd.aws/crowd-html-elements.js; the marketplace
 * rewrites that address to its own copy). The common input elements, as plain light-DOM
 * controls (native inputs inside, so labels, keyboard and form validation work):
 *
 *   <crowd-form>          submits, as MTurk does, a POST to <turkSubmitTo>/mturk/externalSubmit
 *                         with the fields assignmentId and taskAnswers: a JSON array holding
 *                         one object with every named element's output. A cancelable
 *                         "submit" event is dispatched on it first (onsubmit handlers may
 *                         call preventDefault); without a submit button of its own it gets
 *                         one; in a preview (ASSIGNMENT_ID_NOT_AVAILABLE) nothing submits.
 *   <crowd-button form-action="submit">   its submit button
 *   <crowd-radio-group> of <crowd-radio-button name value>   one choice; each button
 *                         outputs {"<name>": {"<value>": checked}}
 *   <crowd-checkbox name value>           {"<name>": {"<value or on>": checked}}
 *   <crowd-input name label type value required>   {"<name>": text (a number for type=number)}
 *   <crowd-text-area name label rows value required>   {"<name>": text}
 *   <crowd-slider name min max step value>   {"<name>": number}
 * Named native inputs inside a crowd-form are part of the output too.
 */
(function (global) {
  'use strict';
  var PREVIEW_ID = 'ASSIGNMENT_ID_NOT_AVAILABLE';
  var groups = 0;

  function param(name) {
    var query = global.location.search.replace(/^\?/, '');
    var parts = query === '' ? [] : query.split('&');
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf('=');
      var key = eq < 0 ? parts[i] : parts[i].slice(0, eq);
      if (decodeURIComponent(key.replace(/\+/g, ' ')) === name) return eq < 0 ? '' : decodeURIComponent(parts[i].slice(eq + 1).replace(/\+/g, ' '));
    }
    return '';
  }

  /** Runs once the element's children are parsed (definitions may come before them). */
  function whenParsed(fn) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fn, { once: true });
    else fn();
  }

  var isPreview = function () {
    var id = param('assignmentId');
    return id === '' || id === PREVIEW_ID;
  };

  /** A control rendered once inside a crowd element: the native input it manages. */
  class CrowdControl extends HTMLElement {
    connectedCallback() {
      if (this.rendered) return;
      this.rendered = true;
      whenParsed(() => {
        this.render();
        if (isPreview() || this.hasAttribute('disabled')) this.input.disabled = true;
      });
    }

    get name() {
      return this.getAttribute('name') || '';
    }

    labelled(input, text) {
      input.setAttribute('data-crowd-inner', '');
      var label = document.createElement('label');
      label.className = 'crowd-label';
      label.appendChild(input);
      while (this.firstChild) label.appendChild(this.firstChild);
      if (text) label.appendChild(document.createTextNode(text));
      this.appendChild(label);
      this.input = input;
    }

    fieldWithLabel(input) {
      input.setAttribute('data-crowd-inner', '');
      var label = document.createElement('label');
      label.className = 'crowd-label';
      label.textContent = this.getAttribute('label') || '';
      label.appendChild(input);
      this.appendChild(label);
      this.input = input;
    }
  }

  /** A radio button or checkbox: outputs {"<value or on>": checked} under its name. */
  class CrowdToggle extends CrowdControl {
    get checked() {
      return !!(this.input && this.input.checked);
    }

    output() {
      var o = {};
      o[this.getAttribute('value') || 'on'] = this.checked;
      return o;
    }
  }

  class CrowdRadioButton extends CrowdToggle {
    render() {
      var input = document.createElement('input');
      input.type = 'radio';
      var group = this.closest('crowd-radio-group');
      if (group) {
        group.crowdName = group.crowdName || 'crowd-radio-group-' + ++groups;
        input.name = group.crowdName;
      } else input.name = 'crowd-radio-' + this.name;
      input.value = this.getAttribute('value') || this.name;
      input.checked = this.hasAttribute('checked');
      this.labelled(input);
    }
  }

  class CrowdCheckbox extends CrowdToggle {
    render() {
      var input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = this.hasAttribute('checked');
      input.required = this.hasAttribute('required');
      this.labelled(input);
    }
  }

  class CrowdInput extends CrowdControl {
    render() {
      var input = document.createElement('input');
      input.type = this.getAttribute('type') || 'text';
      input.value = this.getAttribute('value') || '';
      input.required = this.hasAttribute('required');
      if (this.hasAttribute('placeholder')) input.placeholder = this.getAttribute('placeholder');
      if (this.hasAttribute('max-length')) input.maxLength = Number(this.getAttribute('max-length'));
      this.fieldWithLabel(input);
    }

    get value() {
      return this.input ? this.input.value : this.getAttribute('value') || '';
    }

    output() {
      return this.getAttribute('type') === 'number' && this.value !== '' ? Number(this.value) : this.value;
    }
  }

  class CrowdTextArea extends CrowdControl {
    render() {
      var area = document.createElement('textarea');
      area.rows = Number(this.getAttribute('rows') || 3);
      area.value = this.getAttribute('value') || '';
      area.required = this.hasAttribute('required');
      if (this.hasAttribute('placeholder')) area.placeholder = this.getAttribute('placeholder');
      this.fieldWithLabel(area);
    }

    get value() {
      return this.input ? this.input.value : this.getAttribute('value') || '';
    }

    output() {
      return this.value;
    }
  }

  class CrowdSlider extends CrowdControl {
    render() {
      var input = document.createElement('input');
      input.type = 'range';
      input.min = this.getAttribute('min') || '0';
      input.max = this.getAttribute('max') || '100';
      input.step = this.getAttribute('step') || '1';
      input.value = this.getAttribute('value') || input.min;
      this.fieldWithLabel(input);
    }

    get value() {
      return this.input ? Number(this.input.value) : Number(this.getAttribute('value') || 0);
    }

    output() {
      return this.value;
    }
  }

  class CrowdButton extends HTMLElement {
    connectedCallback() {
      if (this.rendered) return;
      this.rendered = true;
      whenParsed(() => {
        var button = document.createElement('button');
        button.type = 'button';
        button.setAttribute('data-crowd-inner', '');
        while (this.firstChild) button.appendChild(this.firstChild);
        if (!button.textContent) button.textContent = 'Submit';
        button.disabled = this.hasAttribute('disabled');
        this.appendChild(button);
        this.button = button;
        if (this.getAttribute('form-action') === 'submit') {
          if (isPreview()) button.disabled = true;
          button.addEventListener('click', () => {
            var form = this.closest('crowd-form');
            if (form) form.submitTask();
          });
        }
      });
    }
  }

  var OUTPUT_ELEMENTS = 'crowd-radio-button, crowd-checkbox, crowd-input, crowd-text-area, crowd-slider';
  var NATIVE_FIELDS = 'input[name], textarea[name], select[name]';

  class CrowdForm extends HTMLElement {
    connectedCallback() {
      if (this.ready) return;
      this.ready = true;
      whenParsed(() => {
        if (!this.querySelector('crowd-button[form-action="submit"], button[type="submit"], input[type="submit"]')) {
          var button = document.createElement('crowd-button');
          button.setAttribute('form-action', 'submit');
          button.textContent = 'Submit';
          this.appendChild(button);
        }
        // native submit buttons without a form of their own submit the crowd-form
        this.addEventListener('click', (event) => {
          var target = event.target.closest && event.target.closest('button[type="submit"], input[type="submit"]');
          if (target && !target.form && this.contains(target)) {
            event.preventDefault();
            this.submitTask();
          }
        });
        if (isPreview()) {
          var notice = document.createElement('p');
          notice.className = 'crowd-preview-notice';
          notice.setAttribute('role', 'status');
          notice.textContent = 'This is a preview: accept the HIT to work on it.';
          this.insertBefore(notice, this.firstChild);
          Array.prototype.forEach.call(this.querySelectorAll('input, textarea, select, button'), function (el) {
            el.disabled = true;
          });
        }
      });
    }

    /** The object of every named element's output (document order; a repeated name: the last). */
    answers() {
      var out = {};
      Array.prototype.forEach.call(this.querySelectorAll(OUTPUT_ELEMENTS + ', ' + NATIVE_FIELDS), function (el) {
        if (el.hasAttribute('data-crowd-inner')) return;
        var name = el.getAttribute('name');
        if (!name) return;
        if (el.output) out[name] = el.output();
        else if ((el.type === 'checkbox' || el.type === 'radio') && !el.checked) return;
        else if (!el.disabled) out[name] = el.value;
      });
      return out;
    }

    submitTask() {
      if (isPreview()) return;
      var submitTo = param('turkSubmitTo');
      var action = submitTo !== '' ? submitTo.replace(/\/+$/, '') + '/mturk/externalSubmit' : this.getAttribute('action');
      if (!action) {
        global.alert('This page was opened without a submission address (turkSubmitTo), so it cannot be submitted.');
        return;
      }
      var inner = this.querySelectorAll('[data-crowd-inner], ' + NATIVE_FIELDS);
      for (var i = 0; i < inner.length; i++) {
        if (inner[i].willValidate && !inner[i].checkValidity()) {
          inner[i].reportValidity();
          return;
        }
      }
      if (!this.dispatchEvent(new Event('submit', { cancelable: true }))) return;
      var form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      form.style.display = 'none';
      var fields = { assignmentId: param('assignmentId'), taskAnswers: JSON.stringify([this.answers()]) };
      Object.keys(fields).forEach(function (name) {
        var input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = fields[name];
        form.appendChild(input);
      });
      document.body.appendChild(form);
      form.submit();
    }
  }

  var definitions = {
    'crowd-form': CrowdForm,
    'crowd-button': CrowdButton,
    'crowd-radio-button': CrowdRadioButton,
    'crowd-checkbox': CrowdCheckbox,
    'crowd-input': CrowdInput,
    'crowd-text-area': CrowdTextArea,
    'crowd-slider': CrowdSlider,
  };
  Object.keys(definitions).forEach(function (tag) {
    if (!customElements.get(tag)) customElements.define(tag, definitions[tag]);
  });
  // groups and layout elements are plain containers
  ['crowd-radio-group', 'crowd-instructions', 'short-instructions', 'full-instructions', 'crowd-alert', 'crowd-card'].forEach(function (tag) {
    if (!customElements.get(tag)) customElements.define(tag, class extends HTMLElement {});
  });
})(window);
