// Progressive enhancement for the report forms; every form works without it.
// 1. A form with data-progress: on submit, disable its button and walk through the steps named in
//    data-progress ("a|b|c") in its live region while the server fetches and analyses the page.
// 2. A privacy choice (data-privacy): show the password field only while "Password" is chosen.
'use strict';

(function () {
  var STEP_MS = 1800;

  function startProgress(form) {
    var steps = (form.getAttribute('data-progress') || '').split('|').filter(Boolean);
    var status = form.querySelector('[data-progress-status]');
    var button = form.querySelector('button[type="submit"]');
    if (button) {
      button.disabled = true;
      button.setAttribute('aria-disabled', 'true');
    }
    if (!status || steps.length === 0) return;
    var index = 0;
    status.textContent = steps[0];
    form.progressTimer = window.setInterval(function () {
      index = Math.min(index + 1, steps.length - 1);
      status.textContent = steps[index];
    }, STEP_MS);
  }

  function resetProgress(form) {
    window.clearInterval(form.progressTimer);
    delete form.dataset.submitting;
    var status = form.querySelector('[data-progress-status]');
    var button = form.querySelector('button[type="submit"]');
    if (status) status.textContent = '';
    if (button) {
      button.disabled = false;
      button.removeAttribute('aria-disabled');
    }
  }

  var progressForms = document.querySelectorAll('form[data-progress]');
  progressForms.forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (form.dataset.submitting) {
        event.preventDefault();
        return;
      }
      form.dataset.submitting = '1';
      // After the browser has taken the form's values, so disabling the button loses nothing.
      window.setTimeout(function () { startProgress(form); }, 0);
    });
  });

  // Coming back with the Back button restores the page as it was left: with the button disabled.
  window.addEventListener('pageshow', function (event) {
    if (event.persisted) progressForms.forEach(resetProgress);
  });

  document.querySelectorAll('[data-privacy]').forEach(function (fieldset) {
    var form = fieldset.closest('form');
    var passwordField = form && form.querySelector('[data-password-field]');
    if (!passwordField) return;
    function update() {
      var chosen = fieldset.querySelector('input[name="privacy"]:checked');
      passwordField.hidden = !chosen || chosen.value !== '2';
    }
    fieldset.addEventListener('change', update);
    update();
  });
})();
