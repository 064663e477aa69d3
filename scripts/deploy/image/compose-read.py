#!/usr/bin/env python3
"""Reads compose.yaml for image-check.sh, so the check runs what the compose file says.

Interpolates ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, $VAR and $$ from
the environment, as Docker Compose does (podman-compose 1.0.3 does not: docs/operations.md).

  compose-read.py FILE env SERVICE        KEY=VALUE lines (the service's environment)
  compose-read.py FILE command SERVICE    the service's command, one argument a line
  compose-read.py FILE healthcheck SERVICE  the health check's command, one argument a line
                                          (CMD-SHELL becomes sh -c "...")
  compose-read.py FILE replicas SERVICE   deploy.replicas (1 when absent)
  compose-read.py FILE published SERVICE  the host port of the service's first ports entry
  compose-read.py FILE config NAME        a top-level config's content
  compose-read.py FILE image SERVICE      the service's image
"""
import os
import re
import sys

import yaml

VARIABLE = re.compile(r"\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))")


def interpolate(text):
    def replace(match):
        escaped, name, operator, argument, bare = match.groups()
        if escaped:
            return "$"
        if bare:
            return os.environ.get(bare, "")
        value = os.environ.get(name)
        unset = value is None or (operator is not None and operator.startswith(":") and value == "")
        if operator in (":-", "-") and unset:
            return argument
        if operator in (":?", "?") and unset:
            sys.exit(f"compose.yaml: {name}: {argument or 'required'}")
        return value or ""

    return VARIABLE.sub(replace, text)


def walk(node):
    if isinstance(node, str):
        return interpolate(node)
    if isinstance(node, list):
        return [walk(item) for item in node]
    if isinstance(node, dict):
        return {key: walk(value) for key, value in node.items()}
    return node


def main():
    path, what, name = sys.argv[1:4]
    with open(path, encoding="utf-8") as file:
        compose = walk(yaml.safe_load(file))
    if what == "config":
        print(compose["configs"][name]["content"], end="")
        return
    service = compose["services"][name]
    if what == "env":
        environment = service.get("environment") or {}
        if isinstance(environment, list):
            environment = dict(item.split("=", 1) for item in environment)
        for key, value in environment.items():
            print(f"{key}={'' if value is None else value}")
    elif what == "command":
        command = service.get("command") or []
        print("\n".join(command if isinstance(command, list) else command.split()))
    elif what == "healthcheck":
        test = service["healthcheck"]["test"]
        if test[0] == "CMD-SHELL":
            test = ["sh", "-c", test[1]]
        elif test[0] == "CMD":
            test = test[1:]
        print("\n".join(test))
    elif what == "replicas":
        print((service.get("deploy") or {}).get("replicas", 1))
    elif what == "published":
        print(str(service["ports"][0]).rsplit(":", 1)[0].split(":")[-1])
    elif what == "image":
        print(service["image"])
    else:
        sys.exit(f"compose-read.py: unknown query {what}")


main()
