# bash completion for jankscope                               -*- shell-script -*-
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Commands and options come from "jankscope --help" and "jankscope COMMAND --help" (in the C
# locale), so this file never lists them: what the program says it takes is what completes.

# "help" is among them.
_jankscope_commands()
{
    LC_ALL=C "$1" --help 2>/dev/null |
        sed -n '/^Commands:/,/^$/{s/^  \([a-z][a-z-]*\)  .*/\1/p}'
}

_jankscope_options()
{
    LC_ALL=C "$1" "$2" --help 2>/dev/null |
        sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p'
}

_jankscope()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion -s || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi

    local jankscope=${words[0]} command="" i
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} != -* ]]; then
            command=${words[i]}
            break
        fi
    done

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(_jankscope_commands "$jankscope")" -- "$cur"))
        fi
        return
    fi

    case $command in
        help)
            COMPREPLY=($(compgen -W "$(_jankscope_commands "$jankscope")" -- "$cur"))
            return
            ;;
        run)
            # After "--" (or the app's name): the app and its own arguments.
            for ((i = i + 1; i < cword; i++)); do
                if [[ ${words[i]} == -- ]] || [[ ${words[i]} != -* && ${words[i - 1]} != @(-r|--report|-t|--threshold) ]]; then
                    if declare -F _command_offset >/dev/null; then
                        _command_offset $((i + (${words[i]} == -- ? 1 : 0)))
                    else
                        COMPREPLY=($(compgen -c -- "$cur"))
                    fi
                    return
                fi
            done
            ;;
        view)
            if [[ $cur != -* && -n $XDG_RUNTIME_DIR ]]; then
                local sockets=("$XDG_RUNTIME_DIR"/jankscope/*.sock)
                sockets=("${sockets[@]##*/}")
                COMPREPLY=($(compgen -W "${sockets[*]%.sock}" -- "$cur"))
                [[ ${sockets[0]} == '*.sock' ]] && COMPREPLY=()
                return
            fi
            ;;
    esac

    case $prev in
        -t | --threshold | --top | --jobs | --signature-frames | --sort | --tier | --class | --source | --scene | --format | -f)
            # A value the program checks itself; --format and --sort list theirs in --help.
            return
            ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_jankscope_options "$jankscope" "$command")" -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi
    # Reports, aggregates and folders of them.
    if declare -F _filedir >/dev/null; then
        _filedir
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
} &&
    complete -F _jankscope jankscope
