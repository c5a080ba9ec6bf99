/**
 * HIT pages written for MTurk, as requesters bring them: one with MTurk's classic
 * externalHIT_v1.js (a form posting to www.mturk.com, turkSetAssignmentID), one with the
 * Crowd HTML Elements (<crowd-form>). Both load MTurk's scripts from MTurk's addresses.
 */

export function classicMturkPage(): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<script type="text/javascript" src="https://s3.amazonaws.com/mturk-public/externalHIT_v1.js"></script>
</head><body>
<form name="mturk_form" method="post" id="mturk_form" action="https://www.mturk.com/mturk/externalSubmit">
<input type="hidden" value="" name="assignmentId" id="assignmentId">
<p id="worker">Worker: <span id="worker-id"></span></p>
<fieldset><legend>Is the passage relevant?</legend>
<label><input type="radio" name="relevance" value="yes"> yes</label>
<label><input type="radio" name="relevance" value="no"> no</label></fieldset>
<label>Comment <input type="text" name="comment"></label>
<input type="submit" id="submitButton" value="Submit">
</form>
<script language="Javascript">turkSetAssignmentID(); document.getElementById('worker-id').textContent = turkGetParam('workerId', 'nobody');</script>
</body></html>`;
}

export function crowdFormPage(): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<script src="https://assets.crowd.aws/crowd-html-elements.js"></script>
</head><body>
<crowd-form>
<short-instructions>Judge the passage.</short-instructions>
<p>Is the passage relevant?</p>
<crowd-radio-group>
<crowd-radio-button name="relevant" value="yes">Relevant</crowd-radio-button>
<crowd-radio-button name="notRelevant" value="no">Not relevant</crowd-radio-button>
</crowd-radio-group>
<crowd-checkbox name="difficult" value="yes">Difficult</crowd-checkbox>
<crowd-text-area name="comment" label="Comment" rows="2"></crowd-text-area>
<crowd-input name="confidence" label="Confidence (1-5)" type="number" value="3"></crowd-input>
</crowd-form>
<script>document.querySelector('crowd-form').onsubmit = function (e) { if (!document.querySelector('crowd-radio-button[name=relevant]').checked && !document.querySelector('crowd-radio-button[name=notRelevant]').checked) { e.preventDefault(); document.body.setAttribute('data-refused', 'yes'); } };</script>
</body></html>`;
}

export function htmlQuestionOf(html: string): string {
  return `<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd"><HTMLContent><![CDATA[${html}]]></HTMLContent><FrameHeight>600</FrameHeight></HTMLQuestion>`;
}

/** A <crowd-form> page judging `keys` (one crowd-radio-group per item, marked for simulated workers). */
export function crowdFormItemsPage(keys: readonly string[]): string {
  const items = keys
    .map(
      (key, i) => `<section data-sim-key="${key}"><p>Item ${i + 1}</p>
<crowd-radio-group><crowd-radio-button name="item${i + 1}_yes" value="yes">Relevant</crowd-radio-button><crowd-radio-button name="item${i + 1}_no" value="no">Not relevant</crowd-radio-button></crowd-radio-group>
<crowd-checkbox name="item${i + 1}_difficult" value="yes">Difficult</crowd-checkbox>
<input type="hidden" name="item${i + 1}_ms" value="0" data-sim-timer></section>`,
    )
    .join('\n');
  return `<!DOCTYPE html><html><head><script src="https://assets.crowd.aws/crowd-html-elements.js"></script></head><body>
<crowd-form>${items}<crowd-text-area name="comment" label="Comment"></crowd-text-area><crowd-input name="confidence" type="number" value="3"></crowd-input></crowd-form></body></html>`;
}

/** A page whose form lacks the assignmentId field MTurk needs: it cannot be submitted. */
export function brokenPage(keys: readonly string[]): string {
  const items = keys
    .map(
      (key, i) =>
        `<div data-sim-key="${key}"><input type="radio" name="item${i + 1}" value="yes"><input type="radio" name="item${i + 1}" value="no"></div>`,
    )
    .join('');
  return `<!DOCTYPE html><html><body><form method="post" action="https://www.mturk.com/mturk/externalSubmit">${items}<input type="submit"></form></body></html>`;
}
