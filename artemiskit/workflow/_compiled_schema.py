"""Validator of workflow.schema.json (fastjsonschema 2.22.3).

It says whether a document conforms, not why (`SchemaChecker` finds the problems).
Do not edit: ``python scripts/generate_workflow_schema.py`` rewrites this file.
"""
# ruff: noqa
# mypy: ignore-errors

SCHEMA_DIGEST = "1ad675b4432b8eadd924ee6fba6e2e8d7602224f36265dbd0224bb2d39301cfc"


class SchemaMismatch(ValueError):
    """The data does not conform (which rule it breaks is not said here)."""


def conforms(data):
    """Whether ``data`` conforms to the schema."""
    try:
        validate(data)
    except SchemaMismatch:
        return False
    return True

VERSION = "2.22.3"
class Decimal:
    """No value checked here is a decimal.Decimal (parsed YAML holds none)."""
import re


REGEX_PATTERNS = {
    '^[A-Za-z_][A-Za-z0-9_-]*$': re.compile('^[A-Za-z_][A-Za-z0-9_-]*\\Z'),
    '^[A-Za-z0-9][A-Za-z0-9_.:-]*$': re.compile('^[A-Za-z0-9][A-Za-z0-9_.:-]*\\Z'),
    '^[A-Za-z][A-Za-z0-9_.-]*$': re.compile('^[A-Za-z][A-Za-z0-9_.-]*\\Z'),
    '^sha256:[0-9a-f]{64}$': re.compile('^sha256:[0-9a-f]{64}\\Z')
}

NoneType = type(None)

def validate(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['version', 'name', 'target', 'conversation', 'budgets']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "version" in data_keys:
            data_keys.remove("version")
            data__version = data["version"]
            if not (isinstance(data__version, (int, float)) and not isinstance(data__version, bool) and data__version == 1):
                raise SchemaMismatch
        if "name" in data_keys:
            data_keys.remove("name")
            data__name = data["name"]
            if not isinstance(data__name, (str)):
                raise SchemaMismatch
            if isinstance(data__name, str):
                data__name_len = len(data__name)
                if data__name_len < 1:
                    raise SchemaMismatch
                if data__name_len > 256:
                    raise SchemaMismatch
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise SchemaMismatch
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 4096:
                    raise SchemaMismatch
        if "tags" in data_keys:
            data_keys.remove("tags")
            data__tags = data["tags"]
            if not isinstance(data__tags, (list, tuple)):
                raise SchemaMismatch
            data__tags_is_list = isinstance(data__tags, (list, tuple))
            if data__tags_is_list:
                data__tags_len = len(data__tags)
                if data__tags_len > 32:
                    raise SchemaMismatch
                for data__tags_x, data__tags_item in enumerate(data__tags):
                    if not isinstance(data__tags_item, (str)):
                        raise SchemaMismatch
                    if isinstance(data__tags_item, str):
                        data__tags_item_len = len(data__tags_item)
                        if data__tags_item_len < 1:
                            raise SchemaMismatch
                        if data__tags_item_len > 64:
                            raise SchemaMismatch
                        if not REGEX_PATTERNS['^[A-Za-z_][A-Za-z0-9_-]*$'].search(data__tags_item):
                            raise SchemaMismatch
        if "cases" in data_keys:
            data_keys.remove("cases")
            data__cases = data["cases"]
            if not isinstance(data__cases, (list, tuple)):
                raise SchemaMismatch
            data__cases_is_list = isinstance(data__cases, (list, tuple))
            if data__cases_is_list:
                data__cases_len = len(data__cases)
                if data__cases_len < 1:
                    raise SchemaMismatch
                if data__cases_len > 100000:
                    raise SchemaMismatch
                for data__cases_x, data__cases_item in enumerate(data__cases):
                    if not isinstance(data__cases_item, (dict)):
                        raise SchemaMismatch
        if "dataset" in data_keys:
            data_keys.remove("dataset")
            data__dataset = data["dataset"]
            if not isinstance(data__dataset, (str)):
                raise SchemaMismatch
            if isinstance(data__dataset, str):
                data__dataset_len = len(data__dataset)
                if data__dataset_len < 1:
                    raise SchemaMismatch
                if data__dataset_len > 512:
                    raise SchemaMismatch
        if "target" in data_keys:
            data_keys.remove("target")
            data__target = data["target"]
            validate____defs_target(data__target, custom_formats, (name_prefix or "data") + ".target")
        if "environment" in data_keys:
            data_keys.remove("environment")
            data__environment = data["environment"]
            validate____defs_environment(data__environment, custom_formats, (name_prefix or "data") + ".environment")
        if "tools" in data_keys:
            data_keys.remove("tools")
            data__tools = data["tools"]
            if not isinstance(data__tools, (list, tuple)):
                raise SchemaMismatch
            data__tools_is_list = isinstance(data__tools, (list, tuple))
            if data__tools_is_list:
                data__tools_len = len(data__tools)
                if data__tools_len > 64:
                    raise SchemaMismatch
                for data__tools_x, data__tools_item in enumerate(data__tools):
                    validate____defs_tool(data__tools_item, custom_formats, (name_prefix or "data") + ".tools[{data__tools_x}]".format(**locals()))
        if "policy" in data_keys:
            data_keys.remove("policy")
            data__policy = data["policy"]
            validate____defs_policy(data__policy, custom_formats, (name_prefix or "data") + ".policy")
        if "conversation" in data_keys:
            data_keys.remove("conversation")
            data__conversation = data["conversation"]
            validate____defs_conversation(data__conversation, custom_formats, (name_prefix or "data") + ".conversation")
        if "budgets" in data_keys:
            data_keys.remove("budgets")
            data__budgets = data["budgets"]
            validate____defs_budgets(data__budgets, custom_formats, (name_prefix or "data") + ".budgets")
        if "outcomes" in data_keys:
            data_keys.remove("outcomes")
            data__outcomes = data["outcomes"]
            if not isinstance(data__outcomes, (list, tuple)):
                raise SchemaMismatch
            data__outcomes_is_list = isinstance(data__outcomes, (list, tuple))
            if data__outcomes_is_list:
                data__outcomes_len = len(data__outcomes)
                if data__outcomes_len > 256:
                    raise SchemaMismatch
                for data__outcomes_x, data__outcomes_item in enumerate(data__outcomes):
                    validate____defs_outcome(data__outcomes_item, custom_formats, (name_prefix or "data") + ".outcomes[{data__outcomes_x}]".format(**locals()))
        if "faults" in data_keys:
            data_keys.remove("faults")
            data__faults = data["faults"]
            if not isinstance(data__faults, (list, tuple)):
                raise SchemaMismatch
            data__faults_is_list = isinstance(data__faults, (list, tuple))
            if data__faults_is_list:
                data__faults_len = len(data__faults)
                if data__faults_len > 32:
                    raise SchemaMismatch
                for data__faults_x, data__faults_item in enumerate(data__faults):
                    validate____defs_fault(data__faults_item, custom_formats, (name_prefix or "data") + ".faults[{data__faults_x}]".format(**locals()))
        if "retry" in data_keys:
            data_keys.remove("retry")
            data__retry = data["retry"]
            validate____defs_retry(data__retry, custom_formats, (name_prefix or "data") + ".retry")
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_retry(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        if "max_attempts" in data_keys:
            data_keys.remove("max_attempts")
            data__maxattempts = data["max_attempts"]
            if not isinstance(data__maxattempts, (int)) and not (isinstance(data__maxattempts, float) and data__maxattempts.is_integer()) or isinstance(data__maxattempts, bool):
                raise SchemaMismatch
            if isinstance(data__maxattempts, (int, float, Decimal)) and not isinstance(data__maxattempts, bool):
                if data__maxattempts < 1:
                    raise SchemaMismatch
                if data__maxattempts > 5:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_fault(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'tool', 'occurrence', 'kind']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise SchemaMismatch
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise SchemaMismatch
                if data__id_len > 128:
                    raise SchemaMismatch
                if not REGEX_PATTERNS['^[A-Za-z0-9][A-Za-z0-9_.:-]*$'].search(data__id):
                    raise SchemaMismatch
        if "tool" in data_keys:
            data_keys.remove("tool")
            data__tool = data["tool"]
            if not (isinstance(data__tool, str) and data__tool == 'read_file' or isinstance(data__tool, str) and data__tool == 'list_files' or isinstance(data__tool, str) and data__tool == 'write_file' or isinstance(data__tool, str) and data__tool == 'append_file' or isinstance(data__tool, str) and data__tool == 'delete_file' or isinstance(data__tool, str) and data__tool == 'read_document' or isinstance(data__tool, str) and data__tool == 'search_documents' or isinstance(data__tool, str) and data__tool == 'get_record' or isinstance(data__tool, str) and data__tool == 'update_record' or isinstance(data__tool, str) and data__tool == 'draft_message' or isinstance(data__tool, str) and data__tool == 'request_approval' or isinstance(data__tool, str) and data__tool == 'delegate_task'):
                raise SchemaMismatch
        if "occurrence" in data_keys:
            data_keys.remove("occurrence")
            data__occurrence = data["occurrence"]
            if not isinstance(data__occurrence, (int)) and not (isinstance(data__occurrence, float) and data__occurrence.is_integer()) or isinstance(data__occurrence, bool):
                raise SchemaMismatch
            if isinstance(data__occurrence, (int, float, Decimal)) and not isinstance(data__occurrence, bool):
                if data__occurrence < 1:
                    raise SchemaMismatch
                if data__occurrence > 10000:
                    raise SchemaMismatch
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'unavailable_tool' or isinstance(data__kind, str) and data__kind == 'timeout' or isinstance(data__kind, str) and data__kind == 'stale_read' or isinstance(data__kind, str) and data__kind == 'incomplete_read' or isinstance(data__kind, str) and data__kind == 'malformed_result' or isinstance(data__kind, str) and data__kind == 'conflicting_instructions'):
                raise SchemaMismatch
        if "timeout_ms" in data_keys:
            data_keys.remove("timeout_ms")
            data__timeoutms = data["timeout_ms"]
            if not isinstance(data__timeoutms, (int)) and not (isinstance(data__timeoutms, float) and data__timeoutms.is_integer()) or isinstance(data__timeoutms, bool):
                raise SchemaMismatch
            if isinstance(data__timeoutms, (int, float, Decimal)) and not isinstance(data__timeoutms, bool):
                if data__timeoutms < 1:
                    raise SchemaMismatch
                if data__timeoutms > 60000:
                    raise SchemaMismatch
        if "fixture" in data_keys:
            data_keys.remove("fixture")
            data__fixture = data["fixture"]
            if not isinstance(data__fixture, (dict)):
                raise SchemaMismatch
        if "content" in data_keys:
            data_keys.remove("content")
            data__content = data["content"]
            if not isinstance(data__content, (str)):
                raise SchemaMismatch
            if isinstance(data__content, str):
                data__content_len = len(data__content)
                if data__content_len < 1:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_outcome(data, custom_formats={}, name_prefix=None):
    data_one_of_count1 = 0
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_file(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_record(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_state(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_tool_called(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_tool_not_called(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_final_response(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_judge(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_trajectory(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 < 2:
        try:
            validate____defs_outcome_scorer(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if data_one_of_count1 != 1:
        raise SchemaMismatch
    return data

def validate____defs_outcome_scorer(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'scorer']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "scorer" in data_keys:
            data_keys.remove("scorer")
            data__scorer = data["scorer"]
            if not isinstance(data__scorer, (str)):
                raise SchemaMismatch
            if isinstance(data__scorer, str):
                data__scorer_len = len(data__scorer)
                if data__scorer_len < 1:
                    raise SchemaMismatch
                if data__scorer_len > 128:
                    raise SchemaMismatch
                if not REGEX_PATTERNS['^[A-Za-z0-9][A-Za-z0-9_.:-]*$'].search(data__scorer):
                    raise SchemaMismatch
        if "with" in data_keys:
            data_keys.remove("with")
            data__with = data["with"]
            if not isinstance(data__with, (dict)):
                raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_outcome_id(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise SchemaMismatch
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 128:
            raise SchemaMismatch
        if not REGEX_PATTERNS['^[A-Za-z0-9][A-Za-z0-9_.:-]*$'].search(data):
            raise SchemaMismatch
    return data

def validate____defs_outcome_trajectory(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'trajectory']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "trajectory" in data_keys:
            data_keys.remove("trajectory")
            data__trajectory = data["trajectory"]
            if not isinstance(data__trajectory, (dict)):
                raise SchemaMismatch
            data__trajectory_is_dict = isinstance(data__trajectory, dict)
            if data__trajectory_is_dict:
                data__trajectory__missing_keys = set(['steps']) - data__trajectory.keys()
                if data__trajectory__missing_keys:
                    raise SchemaMismatch
                data__trajectory_keys = set(data__trajectory.keys())
                if "steps" in data__trajectory_keys:
                    data__trajectory_keys.remove("steps")
                    data__trajectory__steps = data__trajectory["steps"]
                    if not isinstance(data__trajectory__steps, (list, tuple)):
                        raise SchemaMismatch
                    data__trajectory__steps_is_list = isinstance(data__trajectory__steps, (list, tuple))
                    if data__trajectory__steps_is_list:
                        data__trajectory__steps_len = len(data__trajectory__steps)
                        if data__trajectory__steps_len < 1:
                            raise SchemaMismatch
                        if data__trajectory__steps_len > 64:
                            raise SchemaMismatch
                        for data__trajectory__steps_x, data__trajectory__steps_item in enumerate(data__trajectory__steps):
                            validate____defs_trajectory_step(data__trajectory__steps_item, custom_formats, (name_prefix or "data") + ".trajectory.steps[{data__trajectory__steps_x}]".format(**locals()))
                if "mode" in data__trajectory_keys:
                    data__trajectory_keys.remove("mode")
                    data__trajectory__mode = data__trajectory["mode"]
                    if not (isinstance(data__trajectory__mode, str) and data__trajectory__mode == 'subsequence' or isinstance(data__trajectory__mode, str) and data__trajectory__mode == 'prefix' or isinstance(data__trajectory__mode, str) and data__trajectory__mode == 'exact'):
                        raise SchemaMismatch
                if data__trajectory_keys:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_trajectory_step(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['tool']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "tool" in data_keys:
            data_keys.remove("tool")
            data__tool = data["tool"]
            if not (isinstance(data__tool, str) and data__tool == 'read_file' or isinstance(data__tool, str) and data__tool == 'list_files' or isinstance(data__tool, str) and data__tool == 'write_file' or isinstance(data__tool, str) and data__tool == 'append_file' or isinstance(data__tool, str) and data__tool == 'delete_file' or isinstance(data__tool, str) and data__tool == 'read_document' or isinstance(data__tool, str) and data__tool == 'search_documents' or isinstance(data__tool, str) and data__tool == 'get_record' or isinstance(data__tool, str) and data__tool == 'update_record' or isinstance(data__tool, str) and data__tool == 'draft_message' or isinstance(data__tool, str) and data__tool == 'request_approval' or isinstance(data__tool, str) and data__tool == 'delegate_task'):
                raise SchemaMismatch
        if "arguments" in data_keys:
            data_keys.remove("arguments")
            data__arguments = data["arguments"]
            validate____defs_arguments(data__arguments, custom_formats, (name_prefix or "data") + ".arguments")
        if "status" in data_keys:
            data_keys.remove("status")
            data__status = data["status"]
            if not (isinstance(data__status, str) and data__status == 'succeeded' or isinstance(data__status, str) and data__status == 'failed' or isinstance(data__status, str) and data__status == 'denied'):
                raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_arguments(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 64:
            raise SchemaMismatch
        if data_len != 0:
            data_property_names = True
            for data_key in data:
                try:
                    if isinstance(data_key, str):
                        data_key_len = len(data_key)
                        if data_key_len < 1:
                            raise SchemaMismatch
                        if data_key_len > 256:
                            raise SchemaMismatch
                except (SchemaMismatch, SchemaMismatch):
                    data_property_names = False
            if not data_property_names:
                raise SchemaMismatch
    return data

def validate____defs_outcome_judge(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'judge']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "judge" in data_keys:
            data_keys.remove("judge")
            data__judge = data["judge"]
            if not isinstance(data__judge, (dict)):
                raise SchemaMismatch
            data__judge_is_dict = isinstance(data__judge, dict)
            if data__judge_is_dict:
                data__judge__missing_keys = set(['rubric', 'threshold']) - data__judge.keys()
                if data__judge__missing_keys:
                    raise SchemaMismatch
                data__judge_keys = set(data__judge.keys())
                if "rubric" in data__judge_keys:
                    data__judge_keys.remove("rubric")
                    data__judge__rubric = data__judge["rubric"]
                    if not isinstance(data__judge__rubric, (str)):
                        raise SchemaMismatch
                    if isinstance(data__judge__rubric, str):
                        data__judge__rubric_len = len(data__judge__rubric)
                        if data__judge__rubric_len < 1:
                            raise SchemaMismatch
                if "threshold" in data__judge_keys:
                    data__judge_keys.remove("threshold")
                    data__judge__threshold = data__judge["threshold"]
                    if not isinstance(data__judge__threshold, (int, float, Decimal)) or isinstance(data__judge__threshold, bool):
                        raise SchemaMismatch
                    if isinstance(data__judge__threshold, (int, float, Decimal)) and not isinstance(data__judge__threshold, bool):
                        if data__judge__threshold < 0:
                            raise SchemaMismatch
                        if data__judge__threshold > 1:
                            raise SchemaMismatch
                if "sees" in data__judge_keys:
                    data__judge_keys.remove("sees")
                    data__judge__sees = data__judge["sees"]
                    if not isinstance(data__judge__sees, (list, tuple)):
                        raise SchemaMismatch
                    data__judge__sees_is_list = isinstance(data__judge__sees, (list, tuple))
                    if data__judge__sees_is_list:
                        data__judge__sees_len = len(data__judge__sees)
                        if data__judge__sees_len < 1:
                            raise SchemaMismatch
                        if data__judge__sees_len > 8:
                            raise SchemaMismatch
                        for data__judge__sees_x, data__judge__sees_item in enumerate(data__judge__sees):
                            validate____defs_judge_sight(data__judge__sees_item, custom_formats, (name_prefix or "data") + ".judge.sees[{data__judge__sees_x}]".format(**locals()))
                if "samples" in data__judge_keys:
                    data__judge_keys.remove("samples")
                    data__judge__samples = data__judge["samples"]
                    if not isinstance(data__judge__samples, (int)) and not (isinstance(data__judge__samples, float) and data__judge__samples.is_integer()) or isinstance(data__judge__samples, bool):
                        raise SchemaMismatch
                    if isinstance(data__judge__samples, (int, float, Decimal)) and not isinstance(data__judge__samples, bool):
                        if data__judge__samples < 1:
                            raise SchemaMismatch
                        if data__judge__samples > 9:
                            raise SchemaMismatch
                if data__judge_keys:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_judge_sight(data, custom_formats={}, name_prefix=None):
    data_any_of_count2 = 0
    if not data_any_of_count2:
        try:
            if not (isinstance(data, str) and data == 'final_response' or isinstance(data, str) and data == 'tool_calls' or isinstance(data, str) and data == 'drafts' or isinstance(data, str) and data == 'transcript'):
                raise SchemaMismatch
            data_any_of_count2 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if not data_any_of_count2:
        try:
            if not isinstance(data, (dict)):
                raise SchemaMismatch
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data_len = len(data)
                if data_len < 1:
                    raise SchemaMismatch
                if data_len > 1:
                    raise SchemaMismatch
                data_keys = set(data.keys())
                if "files" in data_keys:
                    data_keys.remove("files")
                    data__files = data["files"]
                    if not isinstance(data__files, (list, tuple)):
                        raise SchemaMismatch
                    data__files_is_list = isinstance(data__files, (list, tuple))
                    if data__files_is_list:
                        data__files_len = len(data__files)
                        if data__files_len < 1:
                            raise SchemaMismatch
                        if data__files_len > 64:
                            raise SchemaMismatch
                        for data__files_x, data__files_item in enumerate(data__files):
                            if not isinstance(data__files_item, (str)):
                                raise SchemaMismatch
                            if isinstance(data__files_item, str):
                                data__files_item_len = len(data__files_item)
                                if data__files_item_len < 1:
                                    raise SchemaMismatch
                                if data__files_item_len > 1024:
                                    raise SchemaMismatch
                if "state" in data_keys:
                    data_keys.remove("state")
                    data__state = data["state"]
                    if not isinstance(data__state, (list, tuple)):
                        raise SchemaMismatch
                    data__state_is_list = isinstance(data__state, (list, tuple))
                    if data__state_is_list:
                        data__state_len = len(data__state)
                        if data__state_len < 1:
                            raise SchemaMismatch
                        if data__state_len > 64:
                            raise SchemaMismatch
                        for data__state_x, data__state_item in enumerate(data__state):
                            if not isinstance(data__state_item, (str)):
                                raise SchemaMismatch
                            if isinstance(data__state_item, str):
                                data__state_item_len = len(data__state_item)
                                if data__state_item_len < 1:
                                    raise SchemaMismatch
                                if data__state_item_len > 1024:
                                    raise SchemaMismatch
                if data_keys:
                    raise SchemaMismatch
            data_any_of_count2 += 1
        except (SchemaMismatch, SchemaMismatch): pass
    if not data_any_of_count2:
        raise SchemaMismatch
    return data

def validate____defs_outcome_final_response(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'final_response']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "final_response" in data_keys:
            data_keys.remove("final_response")
            data__finalresponse = data["final_response"]
            if not isinstance(data__finalresponse, (dict)):
                raise SchemaMismatch
            data__finalresponse_is_dict = isinstance(data__finalresponse, dict)
            if data__finalresponse_is_dict:
                data__finalresponse_len = len(data__finalresponse)
                if data__finalresponse_len < 1:
                    raise SchemaMismatch
                data__finalresponse_keys = set(data__finalresponse.keys())
                if "json" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("json")
                    data__finalresponse__json = data__finalresponse["json"]
                    if not isinstance(data__finalresponse__json, (dict)):
                        raise SchemaMismatch
                    data__finalresponse__json_is_dict = isinstance(data__finalresponse__json, dict)
                    if data__finalresponse__json_is_dict:
                        data__finalresponse__json_len = len(data__finalresponse__json)
                        if data__finalresponse__json_len < 1:
                            raise SchemaMismatch
                        if data__finalresponse__json_len > 64:
                            raise SchemaMismatch
                        if data__finalresponse__json_len != 0:
                            data__finalresponse__json_property_names = True
                            for data__finalresponse__json_key in data__finalresponse__json:
                                try:
                                    if isinstance(data__finalresponse__json_key, str):
                                        data__finalresponse__json_key_len = len(data__finalresponse__json_key)
                                        if data__finalresponse__json_key_len < 1:
                                            raise SchemaMismatch
                                        if data__finalresponse__json_key_len > 1024:
                                            raise SchemaMismatch
                                except (SchemaMismatch, SchemaMismatch):
                                    data__finalresponse__json_property_names = False
                            if not data__finalresponse__json_property_names:
                                raise SchemaMismatch
                if "equals" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("equals")
                    data__finalresponse__equals = data__finalresponse["equals"]
                    validate____defs_predicate_equals(data__finalresponse__equals, custom_formats, (name_prefix or "data") + ".final_response.equals")
                if "not_equals" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("not_equals")
                    data__finalresponse__notequals = data__finalresponse["not_equals"]
                    validate____defs_predicate_not_equals(data__finalresponse__notequals, custom_formats, (name_prefix or "data") + ".final_response.not_equals")
                if "one_of" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("one_of")
                    data__finalresponse__oneof = data__finalresponse["one_of"]
                    validate____defs_predicate_one_of(data__finalresponse__oneof, custom_formats, (name_prefix or "data") + ".final_response.one_of")
                if "contains" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("contains")
                    data__finalresponse__contains = data__finalresponse["contains"]
                    validate____defs_predicate_contains(data__finalresponse__contains, custom_formats, (name_prefix or "data") + ".final_response.contains")
                if "not_contains" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("not_contains")
                    data__finalresponse__notcontains = data__finalresponse["not_contains"]
                    validate____defs_predicate_not_contains(data__finalresponse__notcontains, custom_formats, (name_prefix or "data") + ".final_response.not_contains")
                if "matches" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("matches")
                    data__finalresponse__matches = data__finalresponse["matches"]
                    validate____defs_predicate_matches(data__finalresponse__matches, custom_formats, (name_prefix or "data") + ".final_response.matches")
                if "exists" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("exists")
                    data__finalresponse__exists = data__finalresponse["exists"]
                    validate____defs_predicate_exists(data__finalresponse__exists, custom_formats, (name_prefix or "data") + ".final_response.exists")
                if "absent" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("absent")
                    data__finalresponse__absent = data__finalresponse["absent"]
                    validate____defs_predicate_absent(data__finalresponse__absent, custom_formats, (name_prefix or "data") + ".final_response.absent")
                if "gt" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("gt")
                    data__finalresponse__gt = data__finalresponse["gt"]
                    validate____defs_predicate_gt(data__finalresponse__gt, custom_formats, (name_prefix or "data") + ".final_response.gt")
                if "gte" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("gte")
                    data__finalresponse__gte = data__finalresponse["gte"]
                    validate____defs_predicate_gte(data__finalresponse__gte, custom_formats, (name_prefix or "data") + ".final_response.gte")
                if "lt" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("lt")
                    data__finalresponse__lt = data__finalresponse["lt"]
                    validate____defs_predicate_lt(data__finalresponse__lt, custom_formats, (name_prefix or "data") + ".final_response.lt")
                if "lte" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("lte")
                    data__finalresponse__lte = data__finalresponse["lte"]
                    validate____defs_predicate_lte(data__finalresponse__lte, custom_formats, (name_prefix or "data") + ".final_response.lte")
                if "length" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("length")
                    data__finalresponse__length = data__finalresponse["length"]
                    validate____defs_predicate_length(data__finalresponse__length, custom_formats, (name_prefix or "data") + ".final_response.length")
                if "json_schema" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("json_schema")
                    data__finalresponse__jsonschema = data__finalresponse["json_schema"]
                    validate____defs_predicate_json_schema(data__finalresponse__jsonschema, custom_formats, (name_prefix or "data") + ".final_response.json_schema")
                if "all" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("all")
                    data__finalresponse__all = data__finalresponse["all"]
                    validate____defs_predicate_all(data__finalresponse__all, custom_formats, (name_prefix or "data") + ".final_response.all")
                if "any" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("any")
                    data__finalresponse__any = data__finalresponse["any"]
                    validate____defs_predicate_any(data__finalresponse__any, custom_formats, (name_prefix or "data") + ".final_response.any")
                if "not" in data__finalresponse_keys:
                    data__finalresponse_keys.remove("not")
                    data__finalresponse__not = data__finalresponse["not"]
                    validate____defs_predicate_not(data__finalresponse__not, custom_formats, (name_prefix or "data") + ".final_response.not")
                if data__finalresponse_keys:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_predicate_not(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple, dict)):
        raise SchemaMismatch
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 64:
            raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
    return data

def validate____defs_predicate_any(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple, dict)):
        raise SchemaMismatch
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 64:
            raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
    return data

def validate____defs_predicate_all(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple, dict)):
        raise SchemaMismatch
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 64:
            raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
    return data

def validate____defs_predicate_json_schema(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict, bool)):
        raise SchemaMismatch
    return data

def validate____defs_predicate_length(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "min" in data_keys:
            data_keys.remove("min")
            data__min = data["min"]
            if not isinstance(data__min, (int)) and not (isinstance(data__min, float) and data__min.is_integer()) or isinstance(data__min, bool):
                raise SchemaMismatch
            if isinstance(data__min, (int, float, Decimal)) and not isinstance(data__min, bool):
                if data__min < 0:
                    raise SchemaMismatch
                if data__min > 100000000:
                    raise SchemaMismatch
        if "max" in data_keys:
            data_keys.remove("max")
            data__max = data["max"]
            if not isinstance(data__max, (int)) and not (isinstance(data__max, float) and data__max.is_integer()) or isinstance(data__max, bool):
                raise SchemaMismatch
            if isinstance(data__max, (int, float, Decimal)) and not isinstance(data__max, bool):
                if data__max < 0:
                    raise SchemaMismatch
                if data__max > 100000000:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_predicate_lte(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (int, float, Decimal)) or isinstance(data, bool):
        raise SchemaMismatch
    return data

def validate____defs_predicate_lt(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (int, float, Decimal)) or isinstance(data, bool):
        raise SchemaMismatch
    return data

def validate____defs_predicate_gte(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (int, float, Decimal)) or isinstance(data, bool):
        raise SchemaMismatch
    return data

def validate____defs_predicate_gt(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (int, float, Decimal)) or isinstance(data, bool):
        raise SchemaMismatch
    return data

def validate____defs_predicate_absent(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, bool) and data is True):
        raise SchemaMismatch
    return data

def validate____defs_predicate_exists(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, bool) and data is True):
        raise SchemaMismatch
    return data

def validate____defs_predicate_matches(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise SchemaMismatch
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 4096:
            raise SchemaMismatch
    return data

def validate____defs_predicate_not_contains(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str, list, tuple)):
        raise SchemaMismatch
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 64:
            raise SchemaMismatch
    return data

def validate____defs_predicate_contains(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str, list, tuple)):
        raise SchemaMismatch
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 64:
            raise SchemaMismatch
    return data

def validate____defs_predicate_one_of(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise SchemaMismatch
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise SchemaMismatch
        if data_len > 256:
            raise SchemaMismatch
    return data

def validate____defs_predicate_not_equals(data, custom_formats={}, name_prefix=None):
    return data

def validate____defs_predicate_equals(data, custom_formats={}, name_prefix=None):
    return data

def validate____defs_outcome_tool_not_called(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'tool_not_called']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "tool_not_called" in data_keys:
            data_keys.remove("tool_not_called")
            data__toolnotcalled = data["tool_not_called"]
            if not (isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'read_file' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'list_files' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'write_file' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'append_file' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'delete_file' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'read_document' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'search_documents' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'get_record' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'update_record' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'draft_message' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'request_approval' or isinstance(data__toolnotcalled, str) and data__toolnotcalled == 'delegate_task'):
                raise SchemaMismatch
        if "arguments" in data_keys:
            data_keys.remove("arguments")
            data__arguments = data["arguments"]
            validate____defs_arguments(data__arguments, custom_formats, (name_prefix or "data") + ".arguments")
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_outcome_tool_called(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'tool_called']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "tool_called" in data_keys:
            data_keys.remove("tool_called")
            data__toolcalled = data["tool_called"]
            if not (isinstance(data__toolcalled, str) and data__toolcalled == 'read_file' or isinstance(data__toolcalled, str) and data__toolcalled == 'list_files' or isinstance(data__toolcalled, str) and data__toolcalled == 'write_file' or isinstance(data__toolcalled, str) and data__toolcalled == 'append_file' or isinstance(data__toolcalled, str) and data__toolcalled == 'delete_file' or isinstance(data__toolcalled, str) and data__toolcalled == 'read_document' or isinstance(data__toolcalled, str) and data__toolcalled == 'search_documents' or isinstance(data__toolcalled, str) and data__toolcalled == 'get_record' or isinstance(data__toolcalled, str) and data__toolcalled == 'update_record' or isinstance(data__toolcalled, str) and data__toolcalled == 'draft_message' or isinstance(data__toolcalled, str) and data__toolcalled == 'request_approval' or isinstance(data__toolcalled, str) and data__toolcalled == 'delegate_task'):
                raise SchemaMismatch
        if "min" in data_keys:
            data_keys.remove("min")
            data__min = data["min"]
            if not isinstance(data__min, (int)) and not (isinstance(data__min, float) and data__min.is_integer()) or isinstance(data__min, bool):
                raise SchemaMismatch
            if isinstance(data__min, (int, float, Decimal)) and not isinstance(data__min, bool):
                if data__min < 0:
                    raise SchemaMismatch
                if data__min > 10000:
                    raise SchemaMismatch
        if "max" in data_keys:
            data_keys.remove("max")
            data__max = data["max"]
            if not isinstance(data__max, (int)) and not (isinstance(data__max, float) and data__max.is_integer()) or isinstance(data__max, bool):
                raise SchemaMismatch
            if isinstance(data__max, (int, float, Decimal)) and not isinstance(data__max, bool):
                if data__max < 0:
                    raise SchemaMismatch
                if data__max > 10000:
                    raise SchemaMismatch
        if "arguments" in data_keys:
            data_keys.remove("arguments")
            data__arguments = data["arguments"]
            validate____defs_arguments(data__arguments, custom_formats, (name_prefix or "data") + ".arguments")
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_outcome_state(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'state']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "state" in data_keys:
            data_keys.remove("state")
            data__state = data["state"]
            if not isinstance(data__state, (str)):
                raise SchemaMismatch
            if isinstance(data__state, str):
                data__state_len = len(data__state)
                if data__state_len < 1:
                    raise SchemaMismatch
                if data__state_len > 1024:
                    raise SchemaMismatch
        if "equals" in data_keys:
            data_keys.remove("equals")
            data__equals = data["equals"]
            validate____defs_predicate_equals(data__equals, custom_formats, (name_prefix or "data") + ".equals")
        if "not_equals" in data_keys:
            data_keys.remove("not_equals")
            data__notequals = data["not_equals"]
            validate____defs_predicate_not_equals(data__notequals, custom_formats, (name_prefix or "data") + ".not_equals")
        if "one_of" in data_keys:
            data_keys.remove("one_of")
            data__oneof = data["one_of"]
            validate____defs_predicate_one_of(data__oneof, custom_formats, (name_prefix or "data") + ".one_of")
        if "contains" in data_keys:
            data_keys.remove("contains")
            data__contains = data["contains"]
            validate____defs_predicate_contains(data__contains, custom_formats, (name_prefix or "data") + ".contains")
        if "not_contains" in data_keys:
            data_keys.remove("not_contains")
            data__notcontains = data["not_contains"]
            validate____defs_predicate_not_contains(data__notcontains, custom_formats, (name_prefix or "data") + ".not_contains")
        if "matches" in data_keys:
            data_keys.remove("matches")
            data__matches = data["matches"]
            validate____defs_predicate_matches(data__matches, custom_formats, (name_prefix or "data") + ".matches")
        if "exists" in data_keys:
            data_keys.remove("exists")
            data__exists = data["exists"]
            validate____defs_predicate_exists(data__exists, custom_formats, (name_prefix or "data") + ".exists")
        if "absent" in data_keys:
            data_keys.remove("absent")
            data__absent = data["absent"]
            validate____defs_predicate_absent(data__absent, custom_formats, (name_prefix or "data") + ".absent")
        if "gt" in data_keys:
            data_keys.remove("gt")
            data__gt = data["gt"]
            validate____defs_predicate_gt(data__gt, custom_formats, (name_prefix or "data") + ".gt")
        if "gte" in data_keys:
            data_keys.remove("gte")
            data__gte = data["gte"]
            validate____defs_predicate_gte(data__gte, custom_formats, (name_prefix or "data") + ".gte")
        if "lt" in data_keys:
            data_keys.remove("lt")
            data__lt = data["lt"]
            validate____defs_predicate_lt(data__lt, custom_formats, (name_prefix or "data") + ".lt")
        if "lte" in data_keys:
            data_keys.remove("lte")
            data__lte = data["lte"]
            validate____defs_predicate_lte(data__lte, custom_formats, (name_prefix or "data") + ".lte")
        if "length" in data_keys:
            data_keys.remove("length")
            data__length = data["length"]
            validate____defs_predicate_length(data__length, custom_formats, (name_prefix or "data") + ".length")
        if "json_schema" in data_keys:
            data_keys.remove("json_schema")
            data__jsonschema = data["json_schema"]
            validate____defs_predicate_json_schema(data__jsonschema, custom_formats, (name_prefix or "data") + ".json_schema")
        if "all" in data_keys:
            data_keys.remove("all")
            data__all = data["all"]
            validate____defs_predicate_all(data__all, custom_formats, (name_prefix or "data") + ".all")
        if "any" in data_keys:
            data_keys.remove("any")
            data__any = data["any"]
            validate____defs_predicate_any(data__any, custom_formats, (name_prefix or "data") + ".any")
        if "not" in data_keys:
            data_keys.remove("not")
            data__not = data["not"]
            validate____defs_predicate_not(data__not, custom_formats, (name_prefix or "data") + ".not")
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_outcome_record(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'record']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "record" in data_keys:
            data_keys.remove("record")
            data__record = data["record"]
            if not isinstance(data__record, (dict)):
                raise SchemaMismatch
            data__record_is_dict = isinstance(data__record, dict)
            if data__record_is_dict:
                data__record__missing_keys = set(['table', 'id']) - data__record.keys()
                if data__record__missing_keys:
                    raise SchemaMismatch
                data__record_keys = set(data__record.keys())
                if "table" in data__record_keys:
                    data__record_keys.remove("table")
                    data__record__table = data__record["table"]
                    if not isinstance(data__record__table, (str)):
                        raise SchemaMismatch
                    if isinstance(data__record__table, str):
                        data__record__table_len = len(data__record__table)
                        if data__record__table_len < 1:
                            raise SchemaMismatch
                        if data__record__table_len > 256:
                            raise SchemaMismatch
                if "id" in data__record_keys:
                    data__record_keys.remove("id")
                    data__record__id = data__record["id"]
                    if not isinstance(data__record__id, (str)):
                        raise SchemaMismatch
                    if isinstance(data__record__id, str):
                        data__record__id_len = len(data__record__id)
                        if data__record__id_len < 1:
                            raise SchemaMismatch
                        if data__record__id_len > 256:
                            raise SchemaMismatch
                if data__record_keys:
                    raise SchemaMismatch
        if "fields" in data_keys:
            data_keys.remove("fields")
            data__fields = data["fields"]
            if not isinstance(data__fields, (dict)):
                raise SchemaMismatch
            data__fields_is_dict = isinstance(data__fields, dict)
            if data__fields_is_dict:
                data__fields_len = len(data__fields)
                if data__fields_len != 0:
                    data__fields_property_names = True
                    for data__fields_key in data__fields:
                        try:
                            if isinstance(data__fields_key, str):
                                data__fields_key_len = len(data__fields_key)
                                if data__fields_key_len < 1:
                                    raise SchemaMismatch
                                if data__fields_key_len > 128:
                                    raise SchemaMismatch
                        except (SchemaMismatch, SchemaMismatch):
                            data__fields_property_names = False
                    if not data__fields_property_names:
                        raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_outcome_file(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'file']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate____defs_outcome_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "file" in data_keys:
            data_keys.remove("file")
            data__file = data["file"]
            if not isinstance(data__file, (str)):
                raise SchemaMismatch
            if isinstance(data__file, str):
                data__file_len = len(data__file)
                if data__file_len < 1:
                    raise SchemaMismatch
                if data__file_len > 512:
                    raise SchemaMismatch
        if "exists" in data_keys:
            data_keys.remove("exists")
            data__exists = data["exists"]
            validate____defs_predicate_exists(data__exists, custom_formats, (name_prefix or "data") + ".exists")
        if "absent" in data_keys:
            data_keys.remove("absent")
            data__absent = data["absent"]
            validate____defs_predicate_absent(data__absent, custom_formats, (name_prefix or "data") + ".absent")
        if "contains" in data_keys:
            data_keys.remove("contains")
            data__contains = data["contains"]
            validate____defs_predicate_contains(data__contains, custom_formats, (name_prefix or "data") + ".contains")
        if "equals" in data_keys:
            data_keys.remove("equals")
            data__equals = data["equals"]
            validate____defs_predicate_equals(data__equals, custom_formats, (name_prefix or "data") + ".equals")
        if "matches" in data_keys:
            data_keys.remove("matches")
            data__matches = data["matches"]
            validate____defs_predicate_matches(data__matches, custom_formats, (name_prefix or "data") + ".matches")
        if "not_equals" in data_keys:
            data_keys.remove("not_equals")
            data__notequals = data["not_equals"]
            validate____defs_predicate_not_equals(data__notequals, custom_formats, (name_prefix or "data") + ".not_equals")
        if "one_of" in data_keys:
            data_keys.remove("one_of")
            data__oneof = data["one_of"]
            validate____defs_predicate_one_of(data__oneof, custom_formats, (name_prefix or "data") + ".one_of")
        if "not_contains" in data_keys:
            data_keys.remove("not_contains")
            data__notcontains = data["not_contains"]
            validate____defs_predicate_not_contains(data__notcontains, custom_formats, (name_prefix or "data") + ".not_contains")
        if "gt" in data_keys:
            data_keys.remove("gt")
            data__gt = data["gt"]
            validate____defs_predicate_gt(data__gt, custom_formats, (name_prefix or "data") + ".gt")
        if "gte" in data_keys:
            data_keys.remove("gte")
            data__gte = data["gte"]
            validate____defs_predicate_gte(data__gte, custom_formats, (name_prefix or "data") + ".gte")
        if "lt" in data_keys:
            data_keys.remove("lt")
            data__lt = data["lt"]
            validate____defs_predicate_lt(data__lt, custom_formats, (name_prefix or "data") + ".lt")
        if "lte" in data_keys:
            data_keys.remove("lte")
            data__lte = data["lte"]
            validate____defs_predicate_lte(data__lte, custom_formats, (name_prefix or "data") + ".lte")
        if "length" in data_keys:
            data_keys.remove("length")
            data__length = data["length"]
            validate____defs_predicate_length(data__length, custom_formats, (name_prefix or "data") + ".length")
        if "json_schema" in data_keys:
            data_keys.remove("json_schema")
            data__jsonschema = data["json_schema"]
            validate____defs_predicate_json_schema(data__jsonschema, custom_formats, (name_prefix or "data") + ".json_schema")
        if "all" in data_keys:
            data_keys.remove("all")
            data__all = data["all"]
            validate____defs_predicate_all(data__all, custom_formats, (name_prefix or "data") + ".all")
        if "any" in data_keys:
            data_keys.remove("any")
            data__any = data["any"]
            validate____defs_predicate_any(data__any, custom_formats, (name_prefix or "data") + ".any")
        if "not" in data_keys:
            data_keys.remove("not")
            data__not = data["not"]
            validate____defs_predicate_not(data__not, custom_formats, (name_prefix or "data") + ".not")
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_budgets(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['max_actions', 'timeout_ms']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "max_actions" in data_keys:
            data_keys.remove("max_actions")
            data__maxactions = data["max_actions"]
            if not isinstance(data__maxactions, (int)) and not (isinstance(data__maxactions, float) and data__maxactions.is_integer()) or isinstance(data__maxactions, bool):
                raise SchemaMismatch
            if isinstance(data__maxactions, (int, float, Decimal)) and not isinstance(data__maxactions, bool):
                if data__maxactions < 1:
                    raise SchemaMismatch
                if data__maxactions > 10000:
                    raise SchemaMismatch
        if "max_model_requests" in data_keys:
            data_keys.remove("max_model_requests")
            data__maxmodelrequests = data["max_model_requests"]
            if not isinstance(data__maxmodelrequests, (int)) and not (isinstance(data__maxmodelrequests, float) and data__maxmodelrequests.is_integer()) or isinstance(data__maxmodelrequests, bool):
                raise SchemaMismatch
            if isinstance(data__maxmodelrequests, (int, float, Decimal)) and not isinstance(data__maxmodelrequests, bool):
                if data__maxmodelrequests < 1:
                    raise SchemaMismatch
                if data__maxmodelrequests > 10000:
                    raise SchemaMismatch
        if "max_tool_calls" in data_keys:
            data_keys.remove("max_tool_calls")
            data__maxtoolcalls = data["max_tool_calls"]
            if not isinstance(data__maxtoolcalls, (int)) and not (isinstance(data__maxtoolcalls, float) and data__maxtoolcalls.is_integer()) or isinstance(data__maxtoolcalls, bool):
                raise SchemaMismatch
            if isinstance(data__maxtoolcalls, (int, float, Decimal)) and not isinstance(data__maxtoolcalls, bool):
                if data__maxtoolcalls < 1:
                    raise SchemaMismatch
                if data__maxtoolcalls > 10000:
                    raise SchemaMismatch
        if "max_tokens" in data_keys:
            data_keys.remove("max_tokens")
            data__maxtokens = data["max_tokens"]
            if not isinstance(data__maxtokens, (int)) and not (isinstance(data__maxtokens, float) and data__maxtokens.is_integer()) or isinstance(data__maxtokens, bool):
                raise SchemaMismatch
            if isinstance(data__maxtokens, (int, float, Decimal)) and not isinstance(data__maxtokens, bool):
                if data__maxtokens < 1:
                    raise SchemaMismatch
                if data__maxtokens > 100000000:
                    raise SchemaMismatch
        if "timeout_ms" in data_keys:
            data_keys.remove("timeout_ms")
            data__timeoutms = data["timeout_ms"]
            if not isinstance(data__timeoutms, (int)) and not (isinstance(data__timeoutms, float) and data__timeoutms.is_integer()) or isinstance(data__timeoutms, bool):
                raise SchemaMismatch
            if isinstance(data__timeoutms, (int, float, Decimal)) and not isinstance(data__timeoutms, bool):
                if data__timeoutms < 1:
                    raise SchemaMismatch
                if data__timeoutms > 86400000:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_conversation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['turns']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "system" in data_keys:
            data_keys.remove("system")
            data__system = data["system"]
            if not isinstance(data__system, (str)):
                raise SchemaMismatch
        if "turns" in data_keys:
            data_keys.remove("turns")
            data__turns = data["turns"]
            if not isinstance(data__turns, (list, tuple)):
                raise SchemaMismatch
            data__turns_is_list = isinstance(data__turns, (list, tuple))
            if data__turns_is_list:
                data__turns_len = len(data__turns)
                if data__turns_len < 1:
                    raise SchemaMismatch
                if data__turns_len > 1000:
                    raise SchemaMismatch
                for data__turns_x, data__turns_item in enumerate(data__turns):
                    validate____defs_turn(data__turns_item, custom_formats, (name_prefix or "data") + ".turns[{data__turns_x}]".format(**locals()))
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_turn(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['user']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "user" in data_keys:
            data_keys.remove("user")
            data__user = data["user"]
            if not isinstance(data__user, (str)):
                raise SchemaMismatch
            if isinstance(data__user, str):
                data__user_len = len(data__user)
                if data__user_len < 1:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_policy(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        if "network" in data_keys:
            data_keys.remove("network")
            data__network = data["network"]
            if not (isinstance(data__network, str) and data__network == 'denied'):
                raise SchemaMismatch
        if "on_denial" in data_keys:
            data_keys.remove("on_denial")
            data__ondenial = data["on_denial"]
            if not (isinstance(data__ondenial, str) and data__ondenial == 'stop' or isinstance(data__ondenial, str) and data__ondenial == 'report'):
                raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_tool(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['name']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "name" in data_keys:
            data_keys.remove("name")
            data__name = data["name"]
            if not (isinstance(data__name, str) and data__name == 'read_file' or isinstance(data__name, str) and data__name == 'list_files' or isinstance(data__name, str) and data__name == 'write_file' or isinstance(data__name, str) and data__name == 'append_file' or isinstance(data__name, str) and data__name == 'delete_file' or isinstance(data__name, str) and data__name == 'read_document' or isinstance(data__name, str) and data__name == 'search_documents' or isinstance(data__name, str) and data__name == 'get_record' or isinstance(data__name, str) and data__name == 'update_record' or isinstance(data__name, str) and data__name == 'draft_message' or isinstance(data__name, str) and data__name == 'request_approval' or isinstance(data__name, str) and data__name == 'delegate_task'):
                raise SchemaMismatch
        if "allow" in data_keys:
            data_keys.remove("allow")
            data__allow = data["allow"]
            validate____defs_allow(data__allow, custom_formats, (name_prefix or "data") + ".allow")
        if "mcp" in data_keys:
            data_keys.remove("mcp")
            data__mcp = data["mcp"]
            if not isinstance(data__mcp, (dict)):
                raise SchemaMismatch
            data__mcp_is_dict = isinstance(data__mcp, dict)
            if data__mcp_is_dict:
                data__mcp__missing_keys = set(['server', 'tool']) - data__mcp.keys()
                if data__mcp__missing_keys:
                    raise SchemaMismatch
                data__mcp_keys = set(data__mcp.keys())
                if "server" in data__mcp_keys:
                    data__mcp_keys.remove("server")
                    data__mcp__server = data__mcp["server"]
                    if not isinstance(data__mcp__server, (str)):
                        raise SchemaMismatch
                    if isinstance(data__mcp__server, str):
                        data__mcp__server_len = len(data__mcp__server)
                        if data__mcp__server_len < 1:
                            raise SchemaMismatch
                        if data__mcp__server_len > 64:
                            raise SchemaMismatch
                        if not REGEX_PATTERNS['^[A-Za-z][A-Za-z0-9_.-]*$'].search(data__mcp__server):
                            raise SchemaMismatch
                if "tool" in data__mcp_keys:
                    data__mcp_keys.remove("tool")
                    data__mcp__tool = data__mcp["tool"]
                    if not isinstance(data__mcp__tool, (str)):
                        raise SchemaMismatch
                    if isinstance(data__mcp__tool, str):
                        data__mcp__tool_len = len(data__mcp__tool)
                        if data__mcp__tool_len < 1:
                            raise SchemaMismatch
                        if data__mcp__tool_len > 128:
                            raise SchemaMismatch
                if data__mcp_keys:
                    raise SchemaMismatch
        if "resource" in data_keys:
            data_keys.remove("resource")
            data__resource = data["resource"]
            if not isinstance(data__resource, (dict)):
                raise SchemaMismatch
            data__resource_is_dict = isinstance(data__resource, dict)
            if data__resource_is_dict:
                data__resource__missing_keys = set(['key']) - data__resource.keys()
                if data__resource__missing_keys:
                    raise SchemaMismatch
                data__resource_keys = set(data__resource.keys())
                if "key" in data__resource_keys:
                    data__resource_keys.remove("key")
                    data__resource__key = data__resource["key"]
                    if not (isinstance(data__resource__key, str) and data__resource__key == 'paths' or isinstance(data__resource__key, str) and data__resource__key == 'ids' or isinstance(data__resource__key, str) and data__resource__key == 'tables' or isinstance(data__resource__key, str) and data__resource__key == 'fields' or isinstance(data__resource__key, str) and data__resource__key == 'recipients' or isinstance(data__resource__key, str) and data__resource__key == 'actions' or isinstance(data__resource__key, str) and data__resource__key == 'assignees'):
                        raise SchemaMismatch
                if "argument" in data__resource_keys:
                    data__resource_keys.remove("argument")
                    data__resource__argument = data__resource["argument"]
                    if not isinstance(data__resource__argument, (str)):
                        raise SchemaMismatch
                    if isinstance(data__resource__argument, str):
                        data__resource__argument_len = len(data__resource__argument)
                        if data__resource__argument_len < 1:
                            raise SchemaMismatch
                        if data__resource__argument_len > 128:
                            raise SchemaMismatch
                if data__resource_keys:
                    raise SchemaMismatch
        if "effect" in data_keys:
            data_keys.remove("effect")
            data__effect = data["effect"]
            if not (isinstance(data__effect, str) and data__effect == 'read' or isinstance(data__effect, str) and data__effect == 'write'):
                raise SchemaMismatch
        if "schema_digest" in data_keys:
            data_keys.remove("schema_digest")
            data__schemadigest = data["schema_digest"]
            if not isinstance(data__schemadigest, (str)):
                raise SchemaMismatch
            if isinstance(data__schemadigest, str):
                if not REGEX_PATTERNS['^sha256:[0-9a-f]{64}$'].search(data__schemadigest):
                    raise SchemaMismatch
        if "timeout_ms" in data_keys:
            data_keys.remove("timeout_ms")
            data__timeoutms = data["timeout_ms"]
            if not isinstance(data__timeoutms, (int)) and not (isinstance(data__timeoutms, float) and data__timeoutms.is_integer()) or isinstance(data__timeoutms, bool):
                raise SchemaMismatch
            if isinstance(data__timeoutms, (int, float, Decimal)) and not isinstance(data__timeoutms, bool):
                if data__timeoutms < 1:
                    raise SchemaMismatch
                if data__timeoutms > 600000:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_allow(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        if "paths" in data_keys:
            data_keys.remove("paths")
            data__paths = data["paths"]
            if not isinstance(data__paths, (list, tuple)):
                raise SchemaMismatch
            data__paths_is_list = isinstance(data__paths, (list, tuple))
            if data__paths_is_list:
                data__paths_len = len(data__paths)
                if data__paths_len < 1:
                    raise SchemaMismatch
                if data__paths_len > 256:
                    raise SchemaMismatch
                for data__paths_x, data__paths_item in enumerate(data__paths):
                    if not isinstance(data__paths_item, (str)):
                        raise SchemaMismatch
                    if isinstance(data__paths_item, str):
                        data__paths_item_len = len(data__paths_item)
                        if data__paths_item_len < 1:
                            raise SchemaMismatch
                        if data__paths_item_len > 512:
                            raise SchemaMismatch
        if "ids" in data_keys:
            data_keys.remove("ids")
            data__ids = data["ids"]
            if not isinstance(data__ids, (list, tuple)):
                raise SchemaMismatch
            data__ids_is_list = isinstance(data__ids, (list, tuple))
            if data__ids_is_list:
                data__ids_len = len(data__ids)
                if data__ids_len < 1:
                    raise SchemaMismatch
                if data__ids_len > 256:
                    raise SchemaMismatch
                for data__ids_x, data__ids_item in enumerate(data__ids):
                    if not isinstance(data__ids_item, (str)):
                        raise SchemaMismatch
                    if isinstance(data__ids_item, str):
                        data__ids_item_len = len(data__ids_item)
                        if data__ids_item_len < 1:
                            raise SchemaMismatch
                        if data__ids_item_len > 512:
                            raise SchemaMismatch
        if "tables" in data_keys:
            data_keys.remove("tables")
            data__tables = data["tables"]
            if not isinstance(data__tables, (list, tuple)):
                raise SchemaMismatch
            data__tables_is_list = isinstance(data__tables, (list, tuple))
            if data__tables_is_list:
                data__tables_len = len(data__tables)
                if data__tables_len < 1:
                    raise SchemaMismatch
                if data__tables_len > 256:
                    raise SchemaMismatch
                for data__tables_x, data__tables_item in enumerate(data__tables):
                    if not isinstance(data__tables_item, (str)):
                        raise SchemaMismatch
                    if isinstance(data__tables_item, str):
                        data__tables_item_len = len(data__tables_item)
                        if data__tables_item_len < 1:
                            raise SchemaMismatch
                        if data__tables_item_len > 512:
                            raise SchemaMismatch
        if "fields" in data_keys:
            data_keys.remove("fields")
            data__fields = data["fields"]
            if not isinstance(data__fields, (list, tuple)):
                raise SchemaMismatch
            data__fields_is_list = isinstance(data__fields, (list, tuple))
            if data__fields_is_list:
                data__fields_len = len(data__fields)
                if data__fields_len < 1:
                    raise SchemaMismatch
                if data__fields_len > 256:
                    raise SchemaMismatch
                for data__fields_x, data__fields_item in enumerate(data__fields):
                    if not isinstance(data__fields_item, (str)):
                        raise SchemaMismatch
                    if isinstance(data__fields_item, str):
                        data__fields_item_len = len(data__fields_item)
                        if data__fields_item_len < 1:
                            raise SchemaMismatch
                        if data__fields_item_len > 512:
                            raise SchemaMismatch
        if "recipients" in data_keys:
            data_keys.remove("recipients")
            data__recipients = data["recipients"]
            if not isinstance(data__recipients, (list, tuple)):
                raise SchemaMismatch
            data__recipients_is_list = isinstance(data__recipients, (list, tuple))
            if data__recipients_is_list:
                data__recipients_len = len(data__recipients)
                if data__recipients_len < 1:
                    raise SchemaMismatch
                if data__recipients_len > 256:
                    raise SchemaMismatch
                for data__recipients_x, data__recipients_item in enumerate(data__recipients):
                    if not isinstance(data__recipients_item, (str)):
                        raise SchemaMismatch
                    if isinstance(data__recipients_item, str):
                        data__recipients_item_len = len(data__recipients_item)
                        if data__recipients_item_len < 1:
                            raise SchemaMismatch
                        if data__recipients_item_len > 512:
                            raise SchemaMismatch
        if "actions" in data_keys:
            data_keys.remove("actions")
            data__actions = data["actions"]
            if not isinstance(data__actions, (list, tuple)):
                raise SchemaMismatch
            data__actions_is_list = isinstance(data__actions, (list, tuple))
            if data__actions_is_list:
                data__actions_len = len(data__actions)
                if data__actions_len < 1:
                    raise SchemaMismatch
                if data__actions_len > 256:
                    raise SchemaMismatch
                for data__actions_x, data__actions_item in enumerate(data__actions):
                    if not isinstance(data__actions_item, (str)):
                        raise SchemaMismatch
                    if isinstance(data__actions_item, str):
                        data__actions_item_len = len(data__actions_item)
                        if data__actions_item_len < 1:
                            raise SchemaMismatch
                        if data__actions_item_len > 512:
                            raise SchemaMismatch
        if "assignees" in data_keys:
            data_keys.remove("assignees")
            data__assignees = data["assignees"]
            if not isinstance(data__assignees, (list, tuple)):
                raise SchemaMismatch
            data__assignees_is_list = isinstance(data__assignees, (list, tuple))
            if data__assignees_is_list:
                data__assignees_len = len(data__assignees)
                if data__assignees_len < 1:
                    raise SchemaMismatch
                if data__assignees_len > 256:
                    raise SchemaMismatch
                for data__assignees_x, data__assignees_item in enumerate(data__assignees):
                    if not isinstance(data__assignees_item, (str)):
                        raise SchemaMismatch
                    if isinstance(data__assignees_item, str):
                        data__assignees_item_len = len(data__assignees_item)
                        if data__assignees_item_len < 1:
                            raise SchemaMismatch
                        if data__assignees_item_len > 512:
                            raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_environment(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'simulated' or isinstance(data__kind, str) and data__kind == 'sandbox'):
                raise SchemaMismatch
        if "files" in data_keys:
            data_keys.remove("files")
            data__files = data["files"]
            validate____defs_files(data__files, custom_formats, (name_prefix or "data") + ".files")
        if "state" in data_keys:
            data_keys.remove("state")
            data__state = data["state"]
            validate____defs_state(data__state, custom_formats, (name_prefix or "data") + ".state")
        if "fixture" in data_keys:
            data_keys.remove("fixture")
            data__fixture = data["fixture"]
            if not isinstance(data__fixture, (str)):
                raise SchemaMismatch
            if isinstance(data__fixture, str):
                data__fixture_len = len(data__fixture)
                if data__fixture_len < 1:
                    raise SchemaMismatch
                if data__fixture_len > 512:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_state(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        if "documents" in data_keys:
            data_keys.remove("documents")
            data__documents = data["documents"]
            validate____defs_documents(data__documents, custom_formats, (name_prefix or "data") + ".documents")
        if "records" in data_keys:
            data_keys.remove("records")
            data__records = data["records"]
            validate____defs_records(data__records, custom_formats, (name_prefix or "data") + ".records")
        if data_keys:
            raise SchemaMismatch
    return data

def validate____defs_records(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        for data_key in data_keys:
            if data_key not in []:
                data_value = data.get(data_key)
                if not isinstance(data_value, (dict)):
                    raise SchemaMismatch
                data_value_is_dict = isinstance(data_value, dict)
                if data_value_is_dict:
                    data_value_keys = set(data_value.keys())
                    for data_value_key in data_value_keys:
                        if data_value_key not in []:
                            data_value_value = data_value.get(data_value_key)
                            if not isinstance(data_value_value, (dict)):
                                raise SchemaMismatch
                            data_value_value_is_dict = isinstance(data_value_value, dict)
                            if data_value_value_is_dict:
                                data_value_value_len = len(data_value_value)
                                if data_value_value_len != 0:
                                    data_value_value_property_names = True
                                    for data_value_value_key in data_value_value:
                                        try:
                                            if isinstance(data_value_value_key, str):
                                                data_value_value_key_len = len(data_value_value_key)
                                                if data_value_value_key_len < 1:
                                                    raise SchemaMismatch
                                                if data_value_value_key_len > 128:
                                                    raise SchemaMismatch
                                        except (SchemaMismatch, SchemaMismatch):
                                            data_value_value_property_names = False
                                    if not data_value_value_property_names:
                                        raise SchemaMismatch
                    data_value_len = len(data_value)
                    if data_value_len != 0:
                        data_value_property_names = True
                        for data_value_key in data_value:
                            try:
                                if isinstance(data_value_key, str):
                                    data_value_key_len = len(data_value_key)
                                    if data_value_key_len < 1:
                                        raise SchemaMismatch
                                    if data_value_key_len > 256:
                                        raise SchemaMismatch
                            except (SchemaMismatch, SchemaMismatch):
                                data_value_property_names = False
                        if not data_value_property_names:
                            raise SchemaMismatch
        data_len = len(data)
        if data_len != 0:
            data_property_names = True
            for data_key in data:
                try:
                    if isinstance(data_key, str):
                        data_key_len = len(data_key)
                        if data_key_len < 1:
                            raise SchemaMismatch
                        if data_key_len > 256:
                            raise SchemaMismatch
                except (SchemaMismatch, SchemaMismatch):
                    data_property_names = False
            if not data_property_names:
                raise SchemaMismatch
    return data

def validate____defs_documents(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        for data_key in data_keys:
            if data_key not in []:
                data_value = data.get(data_key)
                if not isinstance(data_value, (dict)):
                    raise SchemaMismatch
                data_value_is_dict = isinstance(data_value, dict)
                if data_value_is_dict:
                    data_value__missing_keys = set(['title', 'content']) - data_value.keys()
                    if data_value__missing_keys:
                        raise SchemaMismatch
                    data_value_keys = set(data_value.keys())
                    if "title" in data_value_keys:
                        data_value_keys.remove("title")
                        data_value__title = data_value["title"]
                        if not isinstance(data_value__title, (str)):
                            raise SchemaMismatch
                        if isinstance(data_value__title, str):
                            data_value__title_len = len(data_value__title)
                            if data_value__title_len > 1024:
                                raise SchemaMismatch
                    if "content" in data_value_keys:
                        data_value_keys.remove("content")
                        data_value__content = data_value["content"]
                        if not isinstance(data_value__content, (str)):
                            raise SchemaMismatch
                    if data_value_keys:
                        raise SchemaMismatch
        data_len = len(data)
        if data_len != 0:
            data_property_names = True
            for data_key in data:
                try:
                    if isinstance(data_key, str):
                        data_key_len = len(data_key)
                        if data_key_len < 1:
                            raise SchemaMismatch
                        if data_key_len > 256:
                            raise SchemaMismatch
                except (SchemaMismatch, SchemaMismatch):
                    data_property_names = False
            if not data_property_names:
                raise SchemaMismatch
    return data

def validate____defs_files(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        for data_key in data_keys:
            if data_key not in []:
                data_value = data.get(data_key)
                if not isinstance(data_value, (str)):
                    raise SchemaMismatch
    return data

def validate____defs_target(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise SchemaMismatch
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['provider', 'model']) - data.keys()
        if data__missing_keys:
            raise SchemaMismatch
        data_keys = set(data.keys())
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            if not isinstance(data__provider, (str)):
                raise SchemaMismatch
            if isinstance(data__provider, str):
                data__provider_len = len(data__provider)
                if data__provider_len < 1:
                    raise SchemaMismatch
                if data__provider_len > 128:
                    raise SchemaMismatch
        if "model" in data_keys:
            data_keys.remove("model")
            data__model = data["model"]
            if not isinstance(data__model, (str)):
                raise SchemaMismatch
            if isinstance(data__model, str):
                data__model_len = len(data__model)
                if data__model_len < 1:
                    raise SchemaMismatch
                if data__model_len > 256:
                    raise SchemaMismatch
        if "parameters" in data_keys:
            data_keys.remove("parameters")
            data__parameters = data["parameters"]
            if not isinstance(data__parameters, (dict)):
                raise SchemaMismatch
            data__parameters_is_dict = isinstance(data__parameters, dict)
            if data__parameters_is_dict:
                data__parameters_keys = set(data__parameters.keys())
                if "temperature" in data__parameters_keys:
                    data__parameters_keys.remove("temperature")
                    data__parameters__temperature = data__parameters["temperature"]
                    if not isinstance(data__parameters__temperature, (int, float, Decimal)) or isinstance(data__parameters__temperature, bool):
                        raise SchemaMismatch
                    if isinstance(data__parameters__temperature, (int, float, Decimal)) and not isinstance(data__parameters__temperature, bool):
                        if data__parameters__temperature < 0:
                            raise SchemaMismatch
                        if data__parameters__temperature > 2:
                            raise SchemaMismatch
                if "top_p" in data__parameters_keys:
                    data__parameters_keys.remove("top_p")
                    data__parameters__topp = data__parameters["top_p"]
                    if not isinstance(data__parameters__topp, (int, float, Decimal)) or isinstance(data__parameters__topp, bool):
                        raise SchemaMismatch
                    if isinstance(data__parameters__topp, (int, float, Decimal)) and not isinstance(data__parameters__topp, bool):
                        if data__parameters__topp < 0:
                            raise SchemaMismatch
                        if data__parameters__topp > 1:
                            raise SchemaMismatch
                if "seed" in data__parameters_keys:
                    data__parameters_keys.remove("seed")
                    data__parameters__seed = data__parameters["seed"]
                    if not isinstance(data__parameters__seed, (int)) and not (isinstance(data__parameters__seed, float) and data__parameters__seed.is_integer()) or isinstance(data__parameters__seed, bool):
                        raise SchemaMismatch
                    if isinstance(data__parameters__seed, (int, float, Decimal)) and not isinstance(data__parameters__seed, bool):
                        if data__parameters__seed < 0:
                            raise SchemaMismatch
                        if data__parameters__seed > 9223372036854775807:
                            raise SchemaMismatch
                if "max_output_tokens" in data__parameters_keys:
                    data__parameters_keys.remove("max_output_tokens")
                    data__parameters__maxoutputtokens = data__parameters["max_output_tokens"]
                    if not isinstance(data__parameters__maxoutputtokens, (int)) and not (isinstance(data__parameters__maxoutputtokens, float) and data__parameters__maxoutputtokens.is_integer()) or isinstance(data__parameters__maxoutputtokens, bool):
                        raise SchemaMismatch
                    if isinstance(data__parameters__maxoutputtokens, (int, float, Decimal)) and not isinstance(data__parameters__maxoutputtokens, bool):
                        if data__parameters__maxoutputtokens < 1:
                            raise SchemaMismatch
                        if data__parameters__maxoutputtokens > 1000000:
                            raise SchemaMismatch
                if data__parameters_keys:
                    raise SchemaMismatch
        if data_keys:
            raise SchemaMismatch
    return data
