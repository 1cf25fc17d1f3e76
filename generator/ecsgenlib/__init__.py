"""ecsgen: a JSON schema of components in, a typed C ECS out."""

VERSION = "0.3.0"
