"""boto3 (botocore's own model, signer and parsers) against the qrelay marketplace.

Run by test/marketplace/boto3.test.ts, which starts a marketplace and passes:
MARKETPLACE_ENDPOINT, MARKETPLACE_ACCESS_KEY_ID, MARKETPLACE_SECRET_ACCESS_KEY and
MARKETPLACE_ADMIN_TOKEN (the bearer token of its /admin routes).
"""
import json
import os
import time
import urllib.request
import xml.etree.ElementTree as ET

import boto3
import pytest
from botocore.exceptions import ClientError

ENDPOINT = os.environ["MARKETPLACE_ENDPOINT"]
ANSWERS_NS = "{http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd}"
LOCALE = "00000000000000000071"

PAGE = """<!DOCTYPE html><html><body>
<form id="f" method="post">
<input type="hidden" id="assignmentId" name="assignmentId" value="">
<section data-sim-key="boto3-item-1"><p>Is the passage relevant?</p>
<label><input type="radio" name="item1" value="yes"> Yes</label>
<label><input type="radio" name="item1" value="no"> No</label>
<input type="hidden" name="item1_ms" value="0" data-sim-timer></section>
<button type="submit">Submit</button></form>
<script>var p = new URLSearchParams(location.search);
document.getElementById('assignmentId').value = p.get('assignmentId');
document.getElementById('f').action = p.get('turkSubmitTo') + '/mturk/externalSubmit';</script>
</body></html>"""

QUESTION = (
    '<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd">'
    f"<HTMLContent><![CDATA[{PAGE}]]></HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>"
)

TEST = """<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd">
<Question><QuestionIdentifier>t1</QuestionIdentifier><QuestionContent><Text>2 + 2?</Text></QuestionContent>
<AnswerSpecification><SelectionAnswer><Selections>
<Selection><SelectionIdentifier>four</SelectionIdentifier><Text>4</Text></Selection>
<Selection><SelectionIdentifier>five</SelectionIdentifier><Text>5</Text></Selection>
</Selections></SelectionAnswer></AnswerSpecification></Question>
</QuestionForm>"""

ANSWER_KEY = """<AnswerKey xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd">
<Question><QuestionIdentifier>t1</QuestionIdentifier><AnswerOption><SelectionIdentifier>four</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>
<QualificationValueMapping><PercentageMapping><MaximumSummedScore>1</MaximumSummedScore></PercentageMapping></QualificationValueMapping>
</AnswerKey>"""


@pytest.fixture(scope="module")
def client():
    return boto3.client(
        "mturk",
        endpoint_url=ENDPOINT,
        region_name="us-east-1",
        aws_access_key_id=os.environ["MARKETPLACE_ACCESS_KEY_ID"],
        aws_secret_access_key=os.environ["MARKETPLACE_SECRET_ACCESS_KEY"],
    )


def admin(method, path, body=None):
    request = urllib.request.Request(
        f"{ENDPOINT}/admin/simulation{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {os.environ['MARKETPLACE_ADMIN_TOKEN']}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def test_a_simulated_worker_qualifies_submits_and_is_paid(client):
    assert client.get_account_balance()["AvailableBalance"] == "10000.00"
    exam = client.create_qualification_type(
        Name="boto3 exam",
        Description="one question",
        QualificationTypeStatus="Active",
        Test=TEST,
        AnswerKey=ANSWER_KEY,
        TestDurationInSeconds=600,
    )["QualificationType"]["QualificationTypeId"]
    hit_type = client.create_hit_type(
        Title="boto3: judge one passage",
        Description="Say whether the passage is relevant.",
        Reward="0.50",
        AssignmentDurationInSeconds=600,
        AutoApprovalDelayInSeconds=86400,
        QualificationRequirements=[
            {"QualificationTypeId": exam, "Comparator": "GreaterThanOrEqualTo", "IntegerValues": [50]},
            {"QualificationTypeId": LOCALE, "Comparator": "In", "LocaleValues": [{"Country": "US"}, {"Country": "GB"}]},
        ],
    )["HITTypeId"]
    hit = client.create_hit_with_hit_type(HITTypeId=hit_type, MaxAssignments=1, LifetimeInSeconds=30 * 86400, Question=QUESTION, UniqueRequestToken="boto3-interop-1")["HIT"]
    assert hit["HITTypeId"] == hit_type
    assert hit["QualificationRequirements"][0]["QualificationTypeId"] == exam

    population = admin(
        "PUT",
        "/population",
        {
            "seed": "boto3",
            "size": 1,
            "arrivalsPerHour": 60,
            "shares": {"alwaysYes": 1},
            "accuracy": {"relevant": {"alpha": 9, "beta": 1}, "notRelevant": {"alpha": 9, "beta": 1}},
            "workTime": {"medianSeconds": 30},
            "qualificationSkill": {"alpha": 1000, "beta": 0.01},
            "profile": {"locales": [{"country": "US", "share": 1}]},
        },
    )
    worker_id = population["workers"][0]["workerId"]
    assert admin("PUT", "/oracle", {"boto3-item-1": {"truth": "yes"}}) == {"size": 1}
    admin("POST", "/start")
    # a safety net against a hang, not a speed target: the simulated worker's time is the marketplace clock's
    deadline = time.time() + 180
    while admin("GET", "")["assignments"]["submitted"] < 1:
        assert time.time() < deadline, admin("GET", "")
        time.sleep(0.05)
    progress = admin("POST", "/stop")
    assert progress["qualificationTests"] == {"taken": 1, "granted": 1, "pending": 0}

    qualified = client.list_workers_with_qualification_type(QualificationTypeId=exam)["Qualifications"]
    assert [(q["WorkerId"], q["IntegerValue"]) for q in qualified] == [(worker_id, 100)]
    assignments = client.list_assignments_for_hit(HITId=hit["HITId"], AssignmentStatuses=["Submitted"])["Assignments"]
    assert len(assignments) == 1
    assignment = assignments[0]
    assert assignment["WorkerId"] == worker_id
    answers = {
        a.find(f"{ANSWERS_NS}QuestionIdentifier").text: a.find(f"{ANSWERS_NS}FreeText").text
        for a in ET.fromstring(assignment["Answer"].encode()).findall(f"{ANSWERS_NS}Answer")
    }
    assert list(answers) == ["item1", "item1_ms"]
    assert answers["item1"] == "yes"
    assert int(answers["item1_ms"]) > 0

    client.approve_assignment(AssignmentId=assignment["AssignmentId"], RequesterFeedback="thanks")
    assert client.get_assignment(AssignmentId=assignment["AssignmentId"])["Assignment"]["AssignmentStatus"] == "Approved"
    # $0.50 reward + $0.10 fee (20%), in exact cents
    assert client.get_account_balance()["AvailableBalance"] == "9999.40"


def test_reads_pages_and_fails_like_mturk(client):
    created = [
        client.create_hit(
            Title=f"boto3 HIT {i}",
            Description="made by boto3",
            Reward="0.25",
            MaxAssignments=3,
            LifetimeInSeconds=3600,
            AssignmentDurationInSeconds=300,
            Question=QUESTION,
        )["HIT"]
        for i in range(3)
    ]
    assert type(created[0]["CreationTime"]).__name__ == "datetime"
    got = client.get_hit(HITId=created[0]["HITId"])["HIT"]
    assert got["HITStatus"] == "Assignable"
    assert (got["Expiration"] - got["CreationTime"]).total_seconds() == 3600
    listed = []
    for page in client.get_paginator("list_hits").paginate(PaginationConfig={"PageSize": 2}):
        listed.extend(h["HITId"] for h in page["HITs"])
    assert set(h["HITId"] for h in created) <= set(listed)
    assert len(listed) == len(set(listed))
    with pytest.raises(ClientError) as missing:
        client.get_hit(HITId="NOSUCHHIT")
    assert missing.value.response["Error"]["Code"] == "RequestError"
    assert missing.value.response["TurkErrorCode"] == "AWS.MechanicalTurk.HITDoesNotExist"
    assert missing.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    with pytest.raises(ClientError) as invalid:
        client.create_hit(Title="t", Description="d", Reward="1.234", LifetimeInSeconds=3600, AssignmentDurationInSeconds=300, Question=QUESTION)
    assert invalid.value.response["Error"]["Message"].startswith('Reward: "1.234" does not match the pattern')
